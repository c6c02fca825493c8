#ifndef PERFGATE_PROBE_H
#define PERFGATE_PROBE_H
/* perfgate-probe for C programs: the same runs, regions and report as the C++ API
 * (perfgate/probe.hpp), with explicit begin and end calls in place of scopes.
 *
 *   perfgate_probe_run_begin();
 *   PERFGATE_PROBE_REGION_BEGIN("decode"); decode(); perfgate_probe_region_end();
 *   perfgate_probe_run_end();
 *
 * Every begin needs its end on the same thread, innermost first. */

#ifdef __cplusplus
extern "C" {
#endif

void perfgate_probe_run_begin(void);
void perfgate_probe_run_end(void);

/* Enters region `name` on the calling thread. The report gives it no source location;
 * PERFGATE_PROBE_REGION_BEGIN records the caller's file, line and function. */
void perfgate_probe_region_begin(const char* name);
void perfgate_probe_region_begin_at(const char* name, const char* file, int line,
                                    const char* function);
/* Leaves the innermost open region of the calling thread. */
void perfgate_probe_region_end(void);

/* Writes the report to `path` now; returns 1 on success, 0 when it cannot be written. */
int perfgate_probe_flush(const char* path);

/* Non-zero turns recording on, zero turns it off. */
void perfgate_probe_set_enabled(int enabled);
void perfgate_probe_set_trace(int on);

#define PERFGATE_PROBE_REGION_BEGIN(name) \
  perfgate_probe_region_begin_at((name), __FILE__, __LINE__, __func__)

#ifdef __cplusplus
}
#endif

#endif
