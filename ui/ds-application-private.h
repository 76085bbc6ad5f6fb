/* ds-application-private.h: what the application's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-application.h"
#include "ds-window.h"

G_BEGIN_DECLS

/* diskscope-cli's exit statuses, and the app's own 4. */
enum {
  STATUS_OK = 0,
  STATUS_FAILED = 1,
  STATUS_USAGE = 2,
  STATUS_REFUSED = 3,
  STATUS_NO_DISPLAY = 4,
};

/* The page settings a script gives, each set on the page shown as the
 * user sets its control (ds_window_set_page_option()); a page without it
 * is bad usage.  Their help is in ds-application.c's option entries. */
typedef struct {
  const char *name;
  gboolean    takes_value;
} DsPageOption;

#define DS_N_PAGE_OPTIONS 10
extern const DsPageOption _ds_page_options[DS_N_PAGE_OPTIONS];

struct _DsApplication
{
  AdwApplication  parent_instance;

  /* Scripting options */
  char           *device;
  char           *folder;
  char           *open;
  char           *page;
  char           *screenshot;
  gboolean        start;
  gboolean        quit_when_done;
  int             accuracy;
  char           *destroy_data;
  gboolean        option_given[DS_N_PAGE_OPTIONS];   /* _ds_page_options[i] was given */
  char           *option_value[DS_N_PAGE_OPTIONS];   /* its value (NULL for a switch) */

  char           *page_help;     /* --page's description, from the page table */

  gboolean        scripted;      /* the options were applied once */
  int             run_status;    /* the exit status the script ends with */
  int             exit_status;
  guint           frames;
};

/* ds-application-script.c: applies the scripting options to @window
 * once (the page, the device or folder, the file to open, the page's
 * settings, Start), and ends the app when the script asked. */
void _ds_application_apply_script (DsApplication *self,
                                   DsWindow      *window);

G_END_DECLS
