/* ds-units.h: parsing and formatting sizes, durations and rates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* The unit of rates.  MB/s (10^6 bytes a second) is what CrystalDiskMark,
 * fio ("MB/s") and disk makers print.  HD Tune's "MB/s" is 2^20 bytes a
 * second: in its reports 1952 IOPS of 64 KiB (127.9 x 10^6 B/s) is printed
 * as "121.995 MB/s".  To compare with HD Tune, use MiB/s. */
typedef enum {
  DS_UNITS_MB,   /* 10^6 bytes (the default) */
  DS_UNITS_MIB,  /* 2^20 bytes: HD Tune's "MB" */
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

/* One line saying what the rates mean, for a report's header:
 * "Rates: MB/s, 1 MB = 10^6 bytes (HD Tune's MB is 2^20: --units MiB)". */
const char *ds_units_description (DsUnits units);

/* --align: "block" (0: random offsets are multiples of each I/O's block
 * size) or a size as ds_parse_size() ("512", "4K"); the spec's rule
 * (ds_bench_spec_validate) judges the size. */
gboolean ds_parse_random_align (const char  *text,
                                uint64_t    *ret_bytes,
                                GError     **error);

/* A seed for --seed: 0 to 18446744073709551615 (all 64 bits), or a
 * negative number down to -9223372036854775808, taken as its two's
 * complement (so -1 is 18446744073709551615, as it always was).
 * DS_ERROR_INVALID on anything else. */
gboolean ds_parse_seed     (const char  *text,
                            uint64_t    *ret_seed,
                            GError     **error);

/* "153.9 MB/s" / "146.8 MiB/s" (one decimal from 10 up, three below);
 * "–" for a figure that was not measured (negative, NaN). */
char    *ds_format_rate    (double       bytes_per_s,
                            DsUnits      units);
/* "5.94 ms" style: ms with 3 decimals below 10 ms, 2 below 100, 1 above;
 * "12.3 µs"-free on purpose: HD Tune reports ms. */
char    *ds_format_ms      (double       seconds);
/* The same for the screen and for translated messages: the unit in the
 * user's language ("МБ/с", "毫秒"), as the graph's axes say it (the same
 * msgids).  The text report keeps the two above: English, like HD Tune's. */
char    *ds_format_rate_l10n (double     bytes_per_s,
                              DsUnits    units);
char    *ds_format_ms_l10n   (double     seconds);
/* Transfer and block sizes, which are powers of two: "512 bytes",
 * "4 KiB", "64 KiB", "1 MiB", "8 MiB".  (HD Tune writes "4 KB" and "8 MB"
 * for these; in a report that also prints MB/s = 10^6 bytes a second,
 * "MB" must not mean 2^20 bytes as well.) */
char    *ds_format_block   (uint64_t     bytes);
/* "500 GB", "33.6 MB": device sizes, decimal (10^9, 10^6: like disk
 * labels and like the rates). */
char    *ds_format_size    (uint64_t     bytes);
/* "1 GiB", "200 MiB", "1.5 GiB", "512 bytes": powers of 1024, the way
 * sizes are typed (ds_parse_size) and offered in Preferences, so a size
 * the user gave is echoed in the unit it was given in. */
char    *ds_format_size_iec  (uint64_t   bytes);
/* "200 MiB (209.7 MB)": both, for a size the user gave that is then
 * compared with decimal ones (device capacities). */
char    *ds_format_size_both (uint64_t   bytes);

/* "A-B" (B exclusive) or "A-" (to the end), sizes as ds_parse_size():
 * the offset and the span (0: to the end).  DS_ERROR_INVALID with an
 * example otherwise. */
gboolean ds_parse_range    (const char  *text,
                            uint64_t    *ret_offset_bytes,
                            uint64_t    *ret_span_bytes,
                            GError     **error);

G_END_DECLS
