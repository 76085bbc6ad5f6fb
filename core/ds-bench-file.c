/* ds-bench-file.c: HD Tune's File Benchmark (stub: issue 3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench.h"

const DsBenchOps ds_bench_file = {
  .kind = DS_BENCH_FILE,
  .name = "file",
  .title = "File Benchmark",
  .opens_target = FALSE,
};
