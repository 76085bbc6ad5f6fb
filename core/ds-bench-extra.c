/* ds-bench-extra.c: HD Tune's Extra Tests (stub: issue 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench.h"

const DsBenchOps ds_bench_extra = {
  .kind = DS_BENCH_EXTRA,
  .name = "extra",
  .title = "Extra Tests",
  .opens_target = TRUE,
};
