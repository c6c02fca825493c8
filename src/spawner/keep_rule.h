/* When perfgate-spawner keeps a new run on its own CPU for the moment the run is created,
 * instead of letting the kernel place it (docs/measurement.md, "Where a run starts").
 *
 * The kernel places a new process on the least loaded CPU. With a busy program on every CPU
 * that is another CPU than the spawner's, where the run waits for the rest of that program's
 * time slice (about 3 ms) before it starts, while the spawner's own CPU is about to be free:
 * the spawner only waits for the run. Keeping the run there costs three system calls (about
 * 2% of a run of /bin/true on an idle machine, where the kernel's choice is the right one), so
 * runs are kept only while starts the kernel's way wait.
 *
 * The rule learns from each start how long it took, from just before vfork to its return (the
 * child has exec'd by then): a start the kernel's way that took longer than
 * PERFGATE_START_WAITED_NS waited for a CPU. When 2 of the last 4 starts the kernel's way
 * waited, the next runs are kept, twice as many each time (from PERFGATE_FIRST_KEEP_STRETCH
 * up to PERFGATE_LAST_KEEP_STRETCH) while the kernel's way keeps waiting; after them the
 * kernel's way is tried again. A start the kernel's way that does not wait sets the stretch
 * back to its first length. One start in a while that waits keeps nothing: kept runs lose
 * their CPU to that CPU's busy program now and then (the scheduler's fairness), about 3-5%
 * of them, which is worse than the kernel's way while fewer than that of its starts wait.
 * Shared by the C spawner and its C++ tests. */
#ifndef PERFGATE_SPAWNER_KEEP_RULE_H
#define PERFGATE_SPAWNER_KEEP_RULE_H

#include <stdint.h>

/* A start takes about 0.1 ms on an idle machine; one placed behind a busy program's time
 * slice about 3 ms. */
#define PERFGATE_START_WAITED_NS 1000000
#define PERFGATE_FIRST_KEEP_STRETCH 16u
#define PERFGATE_LAST_KEEP_STRETCH 1024u

struct perfgate_keep_rule {
  uint32_t runs_to_keep; /* runs left to keep before the kernel's way is tried again */
  uint32_t stretch;      /* how many to keep when starts the kernel's way wait again */
  uint32_t recent;       /* the last 4 starts the kernel's way, newest in bit 0: 1 waited */
};

static inline struct perfgate_keep_rule perfgate_keep_rule_start(void) {
  struct perfgate_keep_rule rule;
  rule.runs_to_keep = 0;
  rule.stretch = PERFGATE_FIRST_KEEP_STRETCH;
  rule.recent = 0;
  return rule;
}

/* Whether the next run is kept on the spawner's CPU. */
static inline int perfgate_keep_next(const struct perfgate_keep_rule* rule) {
  return rule->runs_to_keep > 0;
}

/* After a start that took `start_ns`, `kept` or the kernel's way. */
static inline void perfgate_keep_learn(struct perfgate_keep_rule* rule, int64_t start_ns,
                                       int kept) {
  if (kept) {
    if (rule->runs_to_keep > 0) --rule->runs_to_keep;
    return;
  }
  const int waited = start_ns > PERFGATE_START_WAITED_NS;
  rule->recent = ((rule->recent << 1) | (uint32_t)waited) & 0xFu;
  if (!waited) {
    rule->stretch = PERFGATE_FIRST_KEEP_STRETCH;
    return;
  }
  if (__builtin_popcount(rule->recent) >= 2) {
    rule->runs_to_keep = rule->stretch;
    if (rule->stretch < PERFGATE_LAST_KEEP_STRETCH) rule->stretch *= 2u;
  }
}

#endif
