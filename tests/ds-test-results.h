/* ds-test-results.h: results of every kind, built by hand, for the JSON and
 * report tests (no device, no root)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-result.h"

G_BEGIN_DECLS

/* A complete result of @kind on @path (a 500 GB "FUJITSU ETERNUS_DX400",
 * 512/4096-byte blocks), with no figures yet; a write test when @write. */
DsResult *ds_test_result_new      (DsBenchKind  kind,
                                   const char  *path,
                                   gboolean     write);

/* Filled with figures (HD Tune's from shared seeds where there are some). */
DsResult *ds_test_transfer_result (void);   /* 200 points (one EIO), 50 dots, failed at 17 MiB */
DsResult *ds_test_workload_result (void);   /* randrw QD32, reads only, all percentiles */
DsResult *ds_test_extra_result    (gboolean write);
DsResult *ds_test_random_access_result (gboolean write);
DsResult *ds_test_block_size_result    (gboolean write);
DsResult *ds_test_file_result     (gboolean buffered);
/* A replay of /var/tmp/db.dstrace at 2x on /dev/sdz: 1000 I/Os (700
 * reads, 250 writes, 50 flushes) in 2 s, 99.5 % on time, with the
 * capture's figures; figures that a double holds exactly where it can. */
DsResult *ds_test_replay_result   (void);

/* The @i-th of a series of results that are all different: kind, figures,
 * strings and sizes drawn from @i (for memory over many loads). */
DsResult *ds_test_distinct_result (guint i);

/* save -> load (failing the test with the text if it does not load). */
DsResult *ds_test_round_trip      (const DsResult *result);

/* Saved and loaded, @result keeps the settings that shaped its run: the
 * spec's block, depth, threads, pattern, offset, span and time, its
 * report, and the fio job exported from it. */
void      ds_test_assert_settings_kept (const DsResult *result);

G_END_DECLS
