/* ds-workloads-private.h: what the Workloads page's files share
 *
 * ds-workloads-page.c is the widget: what a run is asked to do (configure)
 * and the samples and results it shows; ds-workloads-controls.c its menus
 * and the spec they make; ds-workloads-grid.c
 * holds the grid's cells (one DsMarkStep copy each) and draws the selected
 * cell's series and histogram.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-bench-mark.h"
#include "ds-graph.h"
#include "ds-histogram-layer.h"
#include "ds-line-layer.h"
#include "ds-preset.h"
#include "ds-workloads-page.h"

G_BEGIN_DECLS

/* More rows than any preset has (iometer-dbms: 9). */
#define DS_WORKLOADS_MAX_ROWS 16

typedef struct {
  GtkWidget  *button;       /* a toggle in the grid; NULL: no such cell */
  GtkLabel   *label;
  DsMarkStep *step;         /* its figures once it ran (a copy), or NULL */
  GArray     *live;         /* DsIntervalPoint of the run in progress */
  GArray     *live_buckets; /* DsLatencyBucket of it so far, or NULL */
} DsWorkloadsCell;

struct _DsWorkloadsPage
{
  GtkWidget        parent_instance;

  GSettings       *settings;        /* NULL: no schema */
  gboolean         loading;         /* controls set from settings or a result */
  char            *device_path;
  DsUnits          units;
  DsMarkUnits      mark_units;
  const DsPreset  *preset;          /* the preset the controls show */
  char            *custom_rows;     /* the custom preset's rows (canonical) */
  const DsPreset  *grid_preset;     /* the one the grid shows */
  int              grid_mix;        /* and its Mix column (-1: none) */
  DsWorkloadsCell  cells[DS_WORKLOADS_MAX_ROWS][DS_MARK_N_DIRECTIONS];
  GtkWidget       *row_buttons[DS_WORKLOADS_MAX_ROWS];
  GtkWidget       *headings[DS_MARK_N_DIRECTIONS];
  GtkWidget       *group;           /* the first cell: the toggles' group */
  guint            selected_row;
  DsMarkDirection  selected_direction;
  gboolean         selecting;       /* a toggle is being set from code */
  GArray          *plan;            /* DsPresetStep of the run, or NULL */
  int              running;         /* the plan's step measuring, or -1 */
  double           run_s;           /* a measured run's length (live axis) */
  char            *pending_steps;   /* a row's Start: the row's id */
  DsSeries        *rate;
  DsSeries        *p99;
  DsSeries        *histogram;

  /* Template widgets */
  GtkInfoBar       *error_bar;
  GtkLabel         *error_label;
  GtkButton        *all_button;
  GtkDropDown      *preset_dropdown;
  GtkButton        *rows_button;
  GtkDropDown      *count_dropdown;
  GtkDropDown      *size_dropdown;
  GtkDropDown      *time_dropdown;
  GtkDropDown      *mix_dropdown;
  GtkDropDown      *units_dropdown;
  GtkToggleButton  *reads_only_button;
  GtkEntry         *comment_entry;
  GtkGrid          *grid;
  GtkLabel         *status_label;
  GtkLabel         *series_title;
  DsGraph          *series_graph;
  DsGraphLayer     *rate_layer;
  DsGraphLayer     *p99_layer;
  GtkLabel         *histogram_title;
  DsGraph          *histogram_graph;
  DsGraphLayer     *histogram_layer;
};

/* ds-workloads-controls.c */
/* Fills the menus, follows their changes, restores the last choices. */
void     _ds_workloads_controls_init  (DsWorkloadsPage   *self);
/* Sets the menus as @data was run. */
void     _ds_workloads_controls_show  (DsWorkloadsPage   *self,
                                       const DsMarkData  *data);
/* The preset and what the menus say, into @spec (a DS_BENCH_MARK spec
 * with its target and steps); spec->write when a step writes. */
gboolean _ds_workloads_controls_apply (DsWorkloadsPage   *self,
                                       DsBenchSpec       *spec,
                                       GError           **error);
/* The custom rows: set (valid, canonical rows; @save: into the settings,
 * and the custom preset selected) and get. */
void     _ds_workloads_controls_set_rows (DsWorkloadsPage *self,
                                          const char      *rows,
                                          gboolean         save);
const char *_ds_workloads_controls_get_rows (DsWorkloadsPage *self);
/* A script's --preset NAME, --reads-only, --size SIZE (test size),
 * --duration TIME (measure time) or --count N (ds_page_set_option()). */
gboolean _ds_workloads_controls_set_option (DsWorkloadsPage  *self,
                                            const char       *option,
                                            const char       *value,
                                            GError          **error);

/* ds-workloads-grid.c */
/* Rebuilds the grid for @preset's rows with a Mix column when @mix >= 0
 * (and the preset allows one); every cell empty. */
void  _ds_workloads_grid_build    (DsWorkloadsPage *self,
                                   const DsPreset  *preset,
                                   int              mix);
/* Empties every cell. */
void  _ds_workloads_grid_clear    (DsWorkloadsPage *self);
/* Empties only the cells of self->plan. */
void  _ds_workloads_grid_clear_plan (DsWorkloadsPage *self);
/* Frees what the cells hold (dispose). */
void  _ds_workloads_grid_free     (DsWorkloadsPage *self);
/* Takes @step (a copy) as the cell's figures and shows them. */
void  _ds_workloads_cell_set_step (DsWorkloadsPage *self,
                                   DsMarkStep      *step);
/* A step starts: its cell empties and is selected. */
void  _ds_workloads_cell_begin    (DsWorkloadsPage *self,
                                   guint            row,
                                   DsMarkDirection  direction);
/* A live interval of the step measuring; index 0 starts a new run. */
void  _ds_workloads_cell_add_live (DsWorkloadsPage       *self,
                                   guint                  row,
                                   DsMarkDirection        direction,
                                   guint                  index,
                                   const DsIntervalPoint *point,
                                   const DsIntervalSum   *histogram);
/* Shows the figures in the units chosen, and the headings. */
void  _ds_workloads_grid_refresh  (DsWorkloadsPage *self);
/* Draws the selected cell's series and histogram. */
void  _ds_workloads_show_selected (DsWorkloadsPage *self);

G_END_DECLS
