/* ds-units.h: parsing and formatting sizes, durations and rates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

typedef enum {
  DS_UNITS_MB,   /* 10^6 bytes, HD Tune's and CrystalDiskMark's MB/s */
  DS_UNITS_MIB,  /* 2^20 bytes */
} DsUnits;

/* "MB", "MB/s", "MiB", "MiB/s" (any case); NULL is the default, MB.
 * DS_ERROR_INVALID on anything else. */
gboolean ds_units_from_string (const char  *text,
                               DsUnits     *ret_units,
                               GError     **error);

/* "512", "4K", "64k", "1M", "8M", "1G", "2T" (powers of 1024; a trailing
 * "B"/"iB" is accepted).  DS_ERROR_INVALID on anything else or overflow. */
gboolean ds_parse_size     (const char  *text,
                            uint64_t    *ret_bytes,
                            GError     **error);
/* "500ms", "5s", "1m", "2h", "250us"; a bare number is seconds. */
gboolean ds_parse_duration (const char  *text,
                            uint64_t    *ret_ns,
                            GError     **error);

/* "153.9 MB/s" / "146.8 MiB/s" (one decimal from 10 up, three below). */
char    *ds_format_rate    (double       bytes_per_s,
                            DsUnits      units);
/* "5.94 ms" style: ms with 3 decimals below 10 ms, 2 below 100, 1 above;
 * "12.3 µs"-free on purpose: HD Tune reports ms. */
char    *ds_format_ms      (double       seconds);
/* "4 KB", "64 KB", "1 MB", "0.5 KB", "512 bytes" (HD Tune's transfer names). */
char    *ds_format_block   (uint64_t     bytes);
/* "500 GB" / "64.0 MiB": device sizes, decimal (like disk labels). */
char    *ds_format_size    (uint64_t     bytes);
/* "1 GiB", "200 MiB", "1.5 GiB", "512 bytes": powers of 1024, the way
 * sizes are typed (ds_parse_size) and offered in Preferences, so a size
 * the user gave is echoed in the unit it was given in. */
char    *ds_format_size_iec  (uint64_t   bytes);
/* "200 MiB (209.7 MB)": both, for a size the user gave that is then
 * compared with decimal ones (device capacities). */
char    *ds_format_size_both (uint64_t   bytes);

G_END_DECLS
