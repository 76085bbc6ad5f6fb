/* ds-health-page-private.h: what the Health page's files share
 *
 * ds-health-page.c is the page (its states, the verdict, the self-test
 * controls); ds-health-view.c fills the figures, the attribute table, the
 * NVMe and SCSI figures, the self-test log and smartctl's notes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-health-page.h"
#include "ds-health.h"
#include "ds-result.h"

G_BEGIN_DECLS

struct _DsHealthPage
{
  GtkWidget             parent_instance;

  GPtrArray            *rows;            /* (group, row) pairs to remove */
  char                 *device_path;     /* the selection */
  char                 *run_path;        /* a run began on it (begin()) */
  char                 *live_key;        /* started_at + path of a result read
                                          * from a drive in this window: its
                                          * self-tests may be started */
  char                 *live_device;
  gboolean              test_running;    /* as the shown result says */
  gboolean              has_content;
  gboolean              read_again;      /* the next Start reads live_device */
  GCancellable         *cancellable;     /* a self-test being started */
  guint                 poll_id;

  /* Template widgets */
  GtkStack             *stack;
  AdwStatusPage        *error_status;
  GtkSpinner           *reading_spinner;
  GtkBox               *verdict_box;
  GtkImage             *verdict_icon;
  GtkLabel             *verdict_label;
  GtkLabel             *reasons_label;
  GtkLabel             *source_label;
  AdwPreferencesGroup  *condition_group;
  AdwPreferencesGroup  *drive_group;
  AdwPreferencesGroup  *self_test_group;
  AdwActionRow         *self_test_row;
  GtkProgressBar       *self_test_progress;
  GtkButton            *short_button;
  GtkButton            *long_button;
  GtkButton            *abort_button;
  GtkBox               *attributes_box;
  GtkGrid              *attributes_table;
  AdwPreferencesGroup  *nvme_group;
  AdwPreferencesGroup  *scsi_group;
  GtkBox               *log_box;
  GtkGrid              *log_table;
  AdwPreferencesGroup  *notes_group;
};

/* ds-health-view.c: everything but the verdict and the self-test
 * controls, from @health (and @result's notes). */
void _ds_health_page_fill     (DsHealthPage   *self,
                               const DsHealth *health,
                               const DsResult *result);
/* Removes the rows _ds_health_page_fill() added. */
void _ds_health_page_clear    (DsHealthPage   *self);

G_END_DECLS
