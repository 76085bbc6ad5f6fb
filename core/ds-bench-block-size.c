/* ds-bench-block-size.c: HD Tune's Block Size (stub: issue 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench.h"

const DsBenchOps ds_bench_block_size = {
  .kind = DS_BENCH_BLOCK_SIZE,
  .name = "block-size",
  .title = "Block Size",
  .opens_target = TRUE,
};
