/* stub */
#include "config.h"
#include "ds-bench.h"
#include "ds-bench-workload.h"
const DsBenchOps ds_bench_workload = { .kind = DS_BENCH_WORKLOAD, .name = "workload", .title = "Workload", .opens_target = TRUE };
const double ds_workload_percentiles[DS_WORKLOAD_N_PERCENTILES] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
