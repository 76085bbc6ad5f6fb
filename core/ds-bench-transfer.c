/* stub */
#include "config.h"
#include "ds-bench.h"
const DsBenchOps ds_bench_transfer = { .kind = DS_BENCH_TRANSFER, .name = "benchmark", .title = "Benchmark", .opens_target = TRUE };
