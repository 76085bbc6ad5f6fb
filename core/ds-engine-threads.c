/* ds-engine-threads.c (stub) */
#include "config.h"
#include "ds-engine.h"
const DsEngineOps ds_engine_threads = { .name = "threads", .max_depth = 1, .fan_out = true };
