/* ds-bench-random-access.c: HD Tune's Random Access (stub: issue 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench.h"

const DsBenchOps ds_bench_random_access = {
  .kind = DS_BENCH_RANDOM_ACCESS,
  .name = "random-access",
  .title = "Random Access",
  .opens_target = TRUE,
};
