/* ds-engine-sync.c (stub) */
#include "config.h"
#include "ds-engine.h"
const DsEngineOps ds_engine_sync = { .name = "sync", .max_depth = 1 };
