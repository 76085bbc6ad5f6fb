/* ds-replay-page-private.h: what the Replay page's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-bench.h"
#include "ds-bench-replay.h"
#include "ds-graph.h"
#include "ds-replay-page.h"
#include "ds-replay-trace.h"
#include "ds-series.h"
#include "ds-trace.h"
#include "ds-units.h"

G_BEGIN_DECLS

struct _DsReplayPage
{
  GtkWidget        parent_instance;

  DsSeries        *trace_iops;
  DsSeries        *trace_p99;
  DsSeries        *replay_iops;
  DsSeries        *replay_p99;
  DsUnits          units;
  char            *device_path;
  char            *trace_path;      /* the capture file the page replays */
  DsTraceSummary   summary;         /* the trace's, once profiled */
  gboolean         has_summary;
  GArray          *intervals;       /* DsTraceIntervalFigures of the trace */
  DsReplayData     replay;          /* the replay shown (its series not kept) */
  gboolean         has_replay;
  double           speed;           /* the recorded curve's time scale */
  DsReplayTrace   *job;             /* capturing or profiling */
  gboolean         capturing;
  guint            poll_id;
  GtkFileChooserNative *chooser;
  gboolean         running;

  /* Template widgets */
  GtkInfoBar      *error_bar;
  GtkLabel        *error_label;
  GtkButton       *open_button;
  GtkLabel        *trace_label;
  GtkDropDown     *capture_dropdown;
  GtkButton       *capture_button;
  GtkDropDown     *speed_dropdown;
  GtkCheckButton  *reads_only_button;
  DsGraph         *graph;
  DsGraphLayer    *trace_iops_layer;
  DsGraphLayer    *replay_iops_layer;
  DsGraphLayer    *trace_p99_layer;
  DsGraphLayer    *replay_p99_layer;
  GtkLabel        *finding_label;
  GtkLabel        *status_label;
  GtkGrid         *table;
};

/* ds-replay-page-trace.c */
void     _ds_replay_page_set_controls    (DsReplayPage *self);
void     _ds_replay_page_load_trace      (DsReplayPage *self,
                                          const char   *path);
void     _ds_replay_page_cancel_job      (DsReplayPage *self);
void     _ds_replay_page_draw_recorded   (DsReplayPage *self,
                                          double        speed);
void     _ds_replay_page_capture_clicked (DsReplayPage *self);
void     _ds_replay_page_open_clicked    (DsReplayPage *self);

/* ds-replay-page-figures.c: the table (@s the trace's summary, @r the
 * replay's figures; either NULL), and the replay kind as the page sees it */
void     _ds_replay_page_fill_table      (GtkGrid                   *table,
                                          DsUnits                    units,
                                          const DsTraceSummary      *s,
                                          const DsReplayData        *r);
gboolean _ds_replay_page_configure_spec  (DsBenchSpec               *spec,
                                          const char                *trace,
                                          double                     speed,
                                          gboolean                   reads_only,
                                          GError                   **error);
void     _ds_replay_page_spec_speed      (const DsBenchSpec         *spec,
                                          double                    *ret_speed);
/* A sample's point of the replayed curves; FALSE: it has none. */
gboolean _ds_replay_page_sample_point    (const DsSample            *sample,
                                          double                    *ret_t_s,
                                          double                    *ret_iops,
                                          double                    *ret_p99_s);
/* The trace a result replayed (NULL: not said), its speed and reads-only. */
const char *_ds_replay_page_result_spec  (const DsResult            *result,
                                          double                    *ret_speed,
                                          gboolean                  *ret_reads_only);
/* The replayed curves of @result into @iops and @p99; its figures (NULL:
 * none, a run refused before it began). */
const DsReplayData *_ds_replay_page_result_figures (const DsResult *result,
                                                           DsSeries       *iops,
                                                           DsSeries       *p99);
/* One sentence on the replay against the trace it replayed. */
char    *_ds_replay_page_finding         (const DsReplayData        *r,
                                          double                     speed);

G_END_DECLS
