/* ds-warnings.h: when a result is likely fooled: the rules, and the
 * warnings as JSON and text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

G_BEGIN_DECLS

/* One warning: a stable code for scripts, a sentence for people. */
typedef struct {
  char *code;
  char *message;
} DsWarning;

DsWarning *ds_warning_new  (const char *code,
                            const char *message);
void       ds_warning_free (DsWarning  *warning);
/* Appends warning @code with @message (taken: freed here) to @warnings. */
void       ds_warnings_add (GPtrArray  *warnings,
                            const char *code,
                            char       *message);

/* Other I/O on the device above this share of the run's own is reported. */
#define DS_WARN_OTHER_IO_FRACTION 0.05
/* ... and only above this many bytes: blkid or udisks probing every
 * device (another program listing disks) reads about a megabyte of it,
 * once; that is not a workload sharing the disk. */
#define DS_WARN_OTHER_IO_MIN_BYTES (4 * 1024 * 1024)
/* Writes this many times faster than reads: a cache absorbs them. */
#define DS_WARN_WRITE_BACK_RATIO 10.0
/* A rotating disk seeks: random reads faster than this come from a cache. */
#define DS_WARN_HDD_MIN_RANDOM_S 0.0005

/* What a run learned that the rules judge (ds-run-watch.c fills it). */
typedef struct {
  /* The device stack (ds-environment.c). */
  const char *loop_no_dio;       /* "loop3 over /var/x.img", or NULL */
  const char *cache_layer;       /* "bcache0", "dm-cache (vg-lv)", or NULL */
  gboolean    rotational;
  /* /proc/diskstats around the run (judged only when other_judged). */
  gboolean    other_judged;
  uint64_t    other_bytes;
  uint64_t    ours_bytes;
  /* Sampled read buffers: how many, how many all zero, and the rows,
   * points or steps those were in ("4 KiB random, QD 1"). */
  uint64_t    zero_sampled;
  uint64_t    zero_found;
  GPtrArray  *zero_rows;         /* char*, or NULL */
  /* The region the run touched, and what could hold it all. */
  uint64_t    region_bytes;
  uint64_t    cache_bytes;       /* a known or declared cache, 0 if none */
  gboolean    file_buffered;     /* a file test through the page cache */
  uint64_t    ram_bytes;
  /* Mean latencies of random reads and writes (0 when there were none). */
  double      random_read_mean_s;
  double      random_write_mean_s;
} DsWarnFacts;

/* The rules: a new array of DsWarning for @facts (empty when none applies). */
GPtrArray *ds_warnings_judge   (const DsWarnFacts *facts);

/* warnings: [{code, message}] into @root, and back (FALSE with @error
 * for a malformed one; a file without the member has none). */
void       ds_warnings_to_json   (const GPtrArray *warnings,
                                  JsonObject      *root);
gboolean   ds_warnings_from_json (JsonObject      *root,
                                  GPtrArray       *warnings,
                                  GError         **error);
/* A "Warnings" block for the text report (nothing when there are none). */
void       ds_warnings_report    (const GPtrArray *warnings,
                                  GString         *out);

G_END_DECLS
