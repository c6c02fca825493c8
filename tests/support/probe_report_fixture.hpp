#pragma once
// A probe report as perfgate-probe writes it (docs/probe-report.md), every key in the
// library's order: two runs on two threads, a nested region, a trace and a warning. Tests of
// `perfgate profile` and of the run integration start from it instead of depending on the probe
// library.
#include <string>

#include "model/json.hpp"

namespace perfgate::testing {

inline const char* kProbeReportText = R"({
  "schema_version": 1,
  "created_at": "2026-11-30T14:50:00Z",
  "perfgate_version": "0.1.0",
  "config": {"clock": "tsc", "clock_hz": 2899000000.0, "enabled": true, "disabled_by": null,
             "trace": true, "region_cost_ns": 20.5, "warmup_runs": 0},
  "target": {"executable": "/opt/app/bin/frames", "pid": 4242, "process_name": "frames"},
  "runs": [
    {
      "run_index": 0,
      "thread_index": 0,
      "warmup": false,
      "timing": {"wall_time_us": 100000.0, "cpu_time_us": 70000.0},
      "regions": [
        {"region_id": "frame", "calls": 1, "wall_time_us": 50000.0,
         "self_wall_time_us": 20000.0, "wall_time_fraction": 0.5},
        {"region_id": "frame/decode", "calls": 2, "wall_time_us": 30000.0,
         "self_wall_time_us": 30000.0, "wall_time_fraction": 0.3},
        {"region_id": "render", "calls": 1, "wall_time_us": 30000.0,
         "self_wall_time_us": 30000.0, "wall_time_fraction": 0.3}
      ],
      "residual": {"wall_time_us": 20000.0, "wall_time_fraction": 0.2},
      "dispatched": [],
      "probe": {"region_calls": 4, "cost_us": 0.082, "cost_fraction": 8.2e-07}
    },
    {
      "run_index": 1,
      "thread_index": 1,
      "warmup": false,
      "timing": {"wall_time_us": 200000.0, "cpu_time_us": 150000.0},
      "regions": [
        {"region_id": "frame", "calls": 1, "wall_time_us": 100000.0,
         "self_wall_time_us": 40000.0, "wall_time_fraction": 0.5},
        {"region_id": "frame/decode", "calls": 3, "wall_time_us": 60000.0,
         "self_wall_time_us": 60000.0, "wall_time_fraction": 0.3},
        {"region_id": "render", "calls": 1, "wall_time_us": 80000.0,
         "self_wall_time_us": 80000.0, "wall_time_fraction": 0.4}
      ],
      "residual": {"wall_time_us": 20000.0, "wall_time_fraction": 0.1},
      "dispatched": [],
      "probe": {"region_calls": 5, "cost_us": 0.1025, "cost_fraction": 5.125e-07}
    }
  ],
  "summary": {
    "runs": 2, "measured_runs": 2, "listed_runs": 2, "quantiles": "exact",
    "wall_time_us": {"mean": 150000.0, "min": 100000.0, "median": 100000.0, "p90": 200000.0,
                     "max": 200000.0},
    "cpu_time_us": {"mean": 110000.0},
    "residual": {"wall_time_us": 20000.0, "wall_time_fraction": 0.13333333333333333},
    "regions": [
      {"region_id": "frame", "runs": 2, "calls": 1.0, "wall_time_us": 75000.0,
       "self_wall_time_us": 30000.0, "wall_time_fraction": 0.5,
       "per_run_wall_time_us": {"median": 50000.0, "p90": 100000.0, "max": 100000.0}},
      {"region_id": "frame/decode", "runs": 2, "calls": 2.5, "wall_time_us": 45000.0,
       "self_wall_time_us": 45000.0, "wall_time_fraction": 0.3,
       "per_run_wall_time_us": {"median": 30000.0, "p90": 60000.0, "max": 60000.0}},
      {"region_id": "render", "runs": 2, "calls": 1.0, "wall_time_us": 55000.0,
       "self_wall_time_us": 55000.0, "wall_time_fraction": 0.36666666666666664,
       "per_run_wall_time_us": {"median": 30000.0, "p90": 80000.0, "max": 80000.0}}
    ],
    "dispatched": []
  },
  "regions": [
    {"id": "frame", "name": "frame", "parent": null, "depth": 0,
     "file": "frames.cpp", "line": 20, "function": "run_frame"},
    {"id": "frame/decode", "name": "decode", "parent": "frame", "depth": 1,
     "file": "frames.cpp", "line": 12, "function": "decode"},
    {"id": "render", "name": "render", "parent": null, "depth": 0,
     "file": "frames.cpp", "line": 30, "function": "run_frame"}
  ],
  "threads": [{"thread_index": 0, "name": "main"}, {"thread_index": 1, "name": "worker"}],
  "key_averages": {
    "self_time": [
      {"region_id": "render", "calls": 2, "self_wall_time_us": 110000.0,
       "wall_time_us": 110000.0, "runs": 2},
      {"region_id": "frame/decode", "calls": 5, "self_wall_time_us": 90000.0,
       "wall_time_us": 90000.0, "runs": 2},
      {"region_id": "frame", "calls": 2, "self_wall_time_us": 60000.0,
       "wall_time_us": 150000.0, "runs": 2}
    ],
    "total_time": [
      {"region_id": "frame", "calls": 2, "self_wall_time_us": 60000.0,
       "wall_time_us": 150000.0, "runs": 2},
      {"region_id": "render", "calls": 2, "self_wall_time_us": 110000.0,
       "wall_time_us": 110000.0, "runs": 2},
      {"region_id": "frame/decode", "calls": 5, "self_wall_time_us": 90000.0,
       "wall_time_us": 90000.0, "runs": 2}
    ],
    "by_name": [
      {"name": "render", "calls": 2, "self_wall_time_us": 110000.0, "wall_time_us": 110000.0,
       "runs": 2, "ids": 1},
      {"name": "decode", "calls": 5, "self_wall_time_us": 90000.0, "wall_time_us": 90000.0,
       "runs": 2, "ids": 1},
      {"name": "frame", "calls": 2, "self_wall_time_us": 60000.0, "wall_time_us": 150000.0,
       "runs": 2, "ids": 1}
    ]
  },
  "trace": {
    "events": [
      {"region_id": "frame/decode", "thread_index": 0, "start_us": 10.0005, "duration_us": 29999.9996},
      {"region_id": "frame", "thread_index": 0, "start_us": 0.25, "duration_us": 50000.0},
      {"region_id": "render", "thread_index": 1, "start_us": 100000.123456, "duration_us": 80000.0}
    ],
    "dropped": 0
  },
  "warnings": [
    {"code": "REGION_OPEN_AT_EXIT",
     "message": "region 'render' on thread 1 was still open when the report was written"}
  ]
})";

inline Json probe_report_json() {
  return Json::parse(kProbeReportText);
}

/// The same document with its keys in the order they are written.
inline nlohmann::ordered_json ordered_probe_report_json() {
  return nlohmann::ordered_json::parse(kProbeReportText);
}

}  // namespace perfgate::testing
