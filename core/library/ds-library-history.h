/* ds-library-history.h: a library's results by physical device, over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Results are matched to the device they measured by its WWN or serial
 * number (recorded in the result's target), never by its /dev name, which
 * changes between boots: one WWN is one device, and a result without a WWN
 * (an import, an older file, a USB bridge that hides it) joins the device
 * of its serial, unless that device has another WWN.  Results with neither
 * (loop devices, files) are matched by model, capacity and host, or by
 * path, capacity and host (ds_library_entry_dup_device_key()).
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#include "ds-library.h"
#include "ds-units.h"

G_BEGIN_DECLS

typedef struct {
  char      *key;        /* the newest result's ds_library_entry_dup_device_key() */
  char      *model;      /* NULL where unknown */
  char      *serial;
  char      *wwn;
  char      *path;       /* the newest result's target path */
  char      *hostname;   /* the newest result's host */
  uint64_t   size_bytes;
  GPtrArray *entries;    /* DsLibraryEntry, oldest first (readable only) */
} DsLibraryDevice;

void        ds_library_device_free  (DsLibraryDevice *device);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsLibraryDevice, ds_library_device_free)

/* Every device of @library's readable results, the one tested last first.
 * Transfer full (a GPtrArray that frees its devices). */
GPtrArray  *ds_library_get_devices  (DsLibrary       *library);

/* TRUE when @device is what @text names: its WWN or serial (exactly, any
 * case), its key, or a part of its model or path (case-insensitive). */
gboolean    ds_library_device_matches (const DsLibraryDevice *device,
                                       const char            *text);

/* One kind's headline figure over time: what a trend graph plots. */
typedef struct {
  const char *kind;      /* ds_library_entry_get_kind_name() */
  const char *name;      /* the figure, for people ("Transfer Rate Average") */
  int         unit;      /* its DsCompareUnit */
  GPtrArray  *entries;   /* DsLibraryEntry, oldest first */
  GArray     *values;    /* double, one per entry */
} DsLibraryTrend;

void        ds_library_trend_free   (DsLibraryTrend *trend);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DsLibraryTrend, ds_library_trend_free)

/* @device's trends, one per kind with a headline figure, in the order the
 * kinds were first run.  Transfer full (a GPtrArray that frees them); the
 * strings and entries are @device's, valid while it is. */
GPtrArray  *ds_library_device_trends (const DsLibraryDevice *device);

/* The device's history as text: what it is, then each kind's headline
 * figure over time, oldest first, with the change since the first run
 * (`results history DEVICE` prints it, the library window shows it). */
char       *ds_library_device_history (const DsLibraryDevice *device,
                                       DsUnits                units);

/* The device of @entry among @devices (ds_library_get_devices()); NULL
 * when it has none (an unreadable file).  Transfer none. */
DsLibraryDevice *ds_library_device_of (GPtrArray      *devices,
                                       DsLibraryEntry *entry);

/* "Samsung SSD 870 EVO 1TB (serial S5Y1NX0R, 1.0 TB)". */
char       *ds_library_device_describe (const DsLibraryDevice *device);

G_END_DECLS
