/* ds-caption.h: what a saved picture shows, in words (no widgets)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "ds-bench.h"
#include "ds-device.h"
#include "ds-result.h"

G_BEGIN_DECLS

/* The caption of a screenshot or an exported graph: the strip drawn under
 * it and the PNG's text chunks say the same. */
typedef struct {
  char *title;        /* "Benchmark of /dev/loop10 (QEMU HARDDISK)" */
  char *device;       /* "/dev/loop10 · QEMU HARDDISK · 2.1 GB (2 GiB) · Serial … · Firmware …" */
  char *test;         /* "Benchmark: read · accuracy 3 (250 ms a point) · block 64 KiB · whole device" */
  char *when;         /* "2026-11-30 10:41 CET", the run's (local time) */
  char *software;     /* "Diskscope 0.1.0", and the saved result's file */
} DsCaption;

/* The caption of a page titled @test_title (translated: "Benchmark").
 * With @result, its own device, settings and date (@file: the file it was
 * opened from, or NULL); @device (the device selected now, may be NULL)
 * adds its serial number and firmware when it is the result's device.
 * Without a result, @device and @spec (what Start would run; NULL for a
 * page with no test, such as Info), dated now. */
DsCaption *ds_caption_new          (const char        *test_title,
                                    const DsResult    *result,
                                    const char        *file,
                                    const DsBenchSpec *spec,
                                    const DsDevice    *device);
void       ds_caption_free         (DsCaption         *caption);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsCaption, ds_caption_free)

/* Every line, one after the other (the PNG's Description). */
char      *ds_caption_to_text      (const DsCaption   *caption);
/* Title, Description, Creation Time (@created, RFC 1123 as the PNG
 * specification suggests) and Software, as ds_png_add_text() takes them.
 * Free with g_strfreev(). */
char     **ds_caption_png_text     (const DsCaption   *caption,
                                    GDateTime         *created);

/* "2026-11-30 10:41 CET": an ISO 8601 time (a result's started_at) in
 * local time, or NULL when @iso8601 is not one. */
char      *ds_caption_format_time  (const char        *iso8601);

G_END_DECLS
