/* ds-diskstats.c: one device's sector counts from /proc/diskstats
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ds-diskstats.h"

gboolean
ds_diskstats_parse (const char  *text,
                    const char  *name,
                    DsDiskstats *out)
{
  g_auto (GStrv) lines = NULL;

  *out = (DsDiskstats) { 0 };
  if (text == NULL || name == NULL)
    return FALSE;

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      /* major minor name reads merged sectors ms writes merged sectors ... */
      unsigned major, minor;
      char dev[64];
      unsigned long long rd, rd_merged, rd_sectors, rd_ms, wr, wr_merged, wr_sectors;

      if (sscanf (lines[i], "%u %u %63s %llu %llu %llu %llu %llu %llu %llu",
                  &major, &minor, dev, &rd, &rd_merged, &rd_sectors, &rd_ms,
                  &wr, &wr_merged, &wr_sectors) != 10)
        continue;
      if (strcmp (dev, name) != 0)
        continue;

      out->valid = TRUE;
      out->sectors_read = rd_sectors;
      out->sectors_written = wr_sectors;
      return TRUE;
    }

  return FALSE;
}

gboolean
ds_diskstats_read (const char  *name,
                   DsDiskstats *out)
{
  g_autofree char *text = NULL;

  *out = (DsDiskstats) { 0 };
  if (!g_file_get_contents ("/proc/diskstats", &text, NULL, NULL))
    return FALSE;

  return ds_diskstats_parse (text, name, out);
}

uint64_t
ds_diskstats_other_bytes (const DsDiskstats *start,
                          const DsDiskstats *end,
                          uint64_t           ours_read,
                          uint64_t           ours_written,
                          uint64_t          *ret_total)
{
  uint64_t rd, wr, other = 0;

  if (ret_total != NULL)
    *ret_total = 0;
  if (!start->valid || !end->valid ||
      end->sectors_read < start->sectors_read ||
      end->sectors_written < start->sectors_written)
    return 0;

  rd = (end->sectors_read - start->sectors_read) * DS_DISKSTATS_SECTOR_BYTES;
  wr = (end->sectors_written - start->sectors_written) * DS_DISKSTATS_SECTOR_BYTES;
  if (ret_total != NULL)
    *ret_total = rd + wr;

  /* Each direction on its own: our writes do not excuse someone's reads. */
  if (rd > ours_read)
    other += rd - ours_read;
  if (wr > ours_written)
    other += wr - ours_written;

  return other;
}
