/* ds-pages.c: the window's pages, listed once
 *
 * One row per page; ds-pages.h says how to add one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-benchmark-page.h"
#include "ds-block-size-page.h"
#include "ds-cache-page.h"
#include "ds-erase-page.h"
#include "ds-extra-page.h"
#include "ds-file-page.h"
#include "ds-health-page.h"
#include "ds-info-page.h"
#include "ds-monitor-page.h"
#include "ds-pages.h"
#include "ds-random-access-page.h"
#include "ds-replay-page.h"
#include "ds-workloads-page.h"
#include "ds-scan-page.h"
#include "ds-sustain-page.h"
#include "ds-sweep-page.h"

static const DsPageInfo pages[] = {
  { "benchmark", N_("Benchmark"), APPLICATION_ID "-symbolic",
    DS_BENCH_TRANSFER, ds_benchmark_page_get_type },
  { "extra", N_("Extra Tests"), "view-list-bullet-symbolic",
    DS_BENCH_EXTRA, ds_extra_page_get_type },
  { "random-access", N_("Random Access"), "view-grid-symbolic",
    DS_BENCH_RANDOM_ACCESS, ds_random_access_page_get_type },
  { "block-size", N_("Block Size"), "view-list-ordered-symbolic",
    DS_BENCH_BLOCK_SIZE, ds_block_size_page_get_type },
  { "file", N_("File Benchmark"), "folder-symbolic",
    DS_BENCH_FILE, ds_file_page_get_type, "file-size" },
  { "workloads", N_("Workloads"), "x-office-spreadsheet-symbolic",
    DS_BENCH_MARK, ds_workloads_page_get_type },
  { "sweep", N_("Saturation"), "power-profile-performance-symbolic",
    DS_BENCH_SWEEP, ds_sweep_page_get_type },
  { "sustain", N_("Sustained Write"), "drive-harddisk-solidstate-symbolic",
    DS_BENCH_SUSTAIN, ds_sustain_page_get_type },
  { "cache", N_("Cache Probe"), "drive-multidisk-symbolic",
    DS_BENCH_CACHE, ds_cache_page_get_type },
  { "replay", N_("Replay"), "media-playlist-repeat-symbolic",
    DS_BENCH_REPLAY, ds_replay_page_get_type },
  { "health", N_("Health"), "emblem-ok-symbolic",
    DS_BENCH_HEALTH, ds_health_page_get_type },
  { "error-scan", N_("Error Scan"), "edit-find-symbolic",
    DS_BENCH_ERROR_SCAN, ds_scan_page_get_type },
  { "monitor", N_("Disk Monitor"), "network-transmit-receive-symbolic",
    DS_BENCH_N_KINDS, ds_monitor_page_get_type },
  { "erase", N_("Erase"), "edit-clear-all-symbolic",
    DS_BENCH_ERASE, ds_erase_page_get_type },
  { "info", N_("Info"), "dialog-information-symbolic",
    DS_BENCH_N_KINDS, ds_info_page_get_type },
};

const DsPageInfo *
ds_pages_get (guint *ret_n_pages)
{
  *ret_n_pages = G_N_ELEMENTS (pages);
  return pages;
}

const DsPageInfo *
ds_pages_lookup (const char *name)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (pages); i++)
    if (g_str_equal (pages[i].name, name))
      return &pages[i];

  return NULL;
}

const DsPageInfo *
ds_pages_for_kind (DsBenchKind kind)
{
  for (guint i = 0; kind < DS_BENCH_N_KINDS && i < G_N_ELEMENTS (pages); i++)
    if (pages[i].kind == kind)
      return &pages[i];

  return NULL;
}

char *
ds_pages_list_names (void)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", pages[i].name);

  return g_string_free (names, FALSE);
}
