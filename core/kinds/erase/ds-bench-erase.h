/* ds-bench-erase.h: a gated full overwrite or discard (kind "erase")
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every byte of the target is overwritten with zeros or pseudo-random data
 * (O_DIRECT writes of the block size; a regular file's last bytes that do
 * not fill a whole O_DIRECT block through the page cache, then fdatasync;
 * then a flush of the drive's cache), or handed to the kernel as a discard
 * (BLKDISCARD / BLKSECDISCARD; a hole punched in a regular file).  With
 * verify every byte is read back and compared: zeros, or the same
 * pseudo-random stream (regenerated from the seed, nothing kept in
 * memory).  What a discard's verify means is said in ds-bench-erase.c
 * beside the code: every byte must read back as zero; the run also says
 * where the old data survived.
 *
 * The target is opened through the write gate (ds_target_open() with the
 * write flag and the spec's destroy_data confirmation): the same safety
 * model as every write test.
 *
 * A page drives it through ds_run(); the sink receives, on the worker
 * thread, DS_SAMPLE_PHASE "write", "discard" or "verify" as each starts,
 * and about ten times a second DS_SAMPLE_PROGRESS with offset_bytes = the
 * position, bytes = bytes done in the phase, elapsed_ns = time in the
 * phase, value = the phase's rate so far (bytes/s).  The time left is
 * elapsed_ns × (1 − progress) / progress (progress covers both phases).
 *
 * JSON ("results"; ds-erase-json.c), text report (ds-erase-text.c).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdint.h>

#include "ds-bench.h"
#include "ds-ranges.h"

G_BEGIN_DECLS

/* How the erase destroys the data. */
typedef enum {
  DS_ERASE_ZEROS,          /* overwrite with zeros */
  DS_ERASE_RANDOM,         /* overwrite with pseudo-random data */
  DS_ERASE_DISCARD,        /* BLKDISCARD (files: punch a hole) */
  DS_ERASE_SECURE_DISCARD, /* BLKSECDISCARD */
} DsEraseMethod;

const char *ds_erase_method_to_string   (DsEraseMethod  method);
gboolean    ds_erase_method_from_string (const char    *name,
                                         DsEraseMethod *ret_method);

/* The erase's own options (DsBenchSpec.options of an erase spec). */
typedef struct {
  DsEraseMethod method;
  gboolean      verify;           /* read every byte back */
} DsEraseOptions;

/* @spec's options; @spec must be an erase spec. */
DsEraseOptions       *ds_erase_options       (DsBenchSpec       *spec);
const DsEraseOptions *ds_erase_options_const (const DsBenchSpec *spec);

typedef struct {
  DsEraseMethod method;
  gboolean      verify;           /* asked for */
  uint64_t      size_bytes;       /* what was to be erased: every byte */
  uint64_t      block_bytes;
  uint64_t      seed;             /* random: the stream written */
  uint64_t      bytes_done;       /* written or discarded */
  /* The erase goes from byte 0 up: [0, reached_bytes) was written (or
   * discarded) except write_errors, [reached_bytes, size_bytes) was not
   * touched.  size_bytes once the erase phase finished. */
  uint64_t      reached_bytes;
  uint64_t      erase_ns;
  uint64_t      bytes_verified;   /* read back and compared, from byte 0 */
  uint64_t      verify_ns;
  gboolean      verified;         /* verify read everything and all matched */
  DsRangeList   write_errors;     /* blocks that could not be written */
  DsRangeList   mismatches;       /* blocks that read back otherwise */
  /* Discard: blocks whose sampled sectors read back after the discard
   * exactly as before it (the device kept the old data); a part of
   * mismatches. */
  DsRangeList   survived;
} DsEraseData;

DsEraseData *ds_erase_data_new  (void);
void         ds_erase_data_free (DsEraseData *data);

/* TRUE for an overwrite (zeros, random), FALSE for a discard. */
gboolean     ds_erase_method_overwrites (DsEraseMethod method);

/* TRUE if @path (a block device) advertises discard (queue/discard_max_bytes
 * > 0).  Secure discard is not advertised in sysfs on current kernels:
 * only the BLKSECDISCARD ioctl itself tells (EOPNOTSUPP). */
gboolean ds_erase_discard_supported (const char *path);

/* ds-erase-json.c */
JsonNode    *ds_erase_data_to_json   (const DsEraseData *data);
DsEraseData *ds_erase_data_from_json (JsonObject        *results,
                                      GError           **error);

/* ds-erase-text.c: the report's section; and, for a run whose erase
 * phase did not reach the end (stopped, or failed), which bytes it
 * overwrote (or discarded) in English: "bytes 0 – 114294783 (109.0 MiB) of
 * 268435456; the rest (154140672 bytes from offset 114294784) is
 * untouched", or "nothing; ..."; NULL when it reached the end. */
void         ds_erase_report         (const DsResult    *result,
                                      DsUnits            units,
                                      GString           *out);
char        *ds_erase_describe_reached (const DsEraseData *data);

typedef struct _DsResult DsResult;
typedef struct _DsFigures DsFigures;
typedef struct _DsCurves DsCurves;
typedef struct _DsFioJobFile DsFioJobFile;

/* The kind's comparison (ds-erase-compare.c) and fio job (ds-erase-fio.c):
 * DsBenchOps hooks. */
void     ds_erase_compare_rows   (const DsResult *result,
                                  DsFigures      *figures);
gboolean ds_erase_fio_job        (const DsResult *result,
                                  DsFioJobFile   *job,
                                  GError        **error);

G_END_DECLS
