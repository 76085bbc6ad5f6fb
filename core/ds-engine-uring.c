/* ds-engine-uring.c (stub) */
#include "config.h"
#include "ds-engine.h"
const DsEngineOps ds_engine_uring = { .name = "io_uring", .max_depth = 4096 };
gboolean ds_engine_uring_available (int *ret_errno) { if (ret_errno) *ret_errno = 38; return FALSE; }
