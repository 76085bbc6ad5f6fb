/* ds-window-start.c: Start, as the user presses it and as a script asks
 *
 * A test starts from the visible page's choices (ds_page_configure()).  A
 * write test is refused when its target may not be written at all, and
 * otherwise asks for the target's name (ds-write-confirm-dialog.c); the
 * decision is ds_session_check_write()'s.  A script (diskscope --start)
 * is never asked: its --destroy-data=DEVICE confirms by the rule
 * diskscope-cli follows, or the write is refused with the gate's words,
 * and it sets the page's controls through ds_window_set_page_option().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-error.h"
#include "ds-target.h"
#include "ds-window-private.h"
#include "ds-write-confirm-dialog.h"

typedef struct {
  GWeakRef    window;
  DsBenchSpec spec;
} PendingWrite;

static void
pending_write_free (gpointer  data,
                    GClosure *closure)
{
  PendingWrite *pending = data;

  g_weak_ref_clear (&pending->window);
  ds_bench_spec_clear (&pending->spec);
  g_free (pending);
}

void
_ds_window_show_start_error (DsWindow   *self,
                             const char *message)
{
  DsPage *page = _ds_window_get_visible_page (self);

  if (page != NULL)
    ds_page_show_error (page, message);
  else
    _ds_window_toast (self, message);
}

/* The user typed the target's name: the write runs, confirmed by it (the
 * core's gate checks the name again). */
static void
write_confirmed_cb (DsWriteConfirmDialog *dialog,
                    PendingWrite         *pending)
{
  g_autoptr(DsWindow) self = g_weak_ref_get (&pending->window);
  g_autoptr(GError) error = NULL;

  if (self == NULL)
    return;

  g_free (pending->spec.destroy_data);
  pending->spec.destroy_data = g_strdup (ds_write_confirm_dialog_get_target (dialog));
  if (!ds_session_start_checked (self->session, &pending->spec, &error))
    _ds_window_show_start_error (self, error->message);
}

static void
confirm_write (DsWindow          *self,
               const DsBenchSpec *spec)
{
  GtkWidget *dialog = ds_write_confirm_dialog_new (GTK_WINDOW (self), spec->target_path);
  PendingWrite *pending = g_new0 (PendingWrite, 1);
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  const char *words = ops != NULL && ops->confirm_words != NULL ? ops->confirm_words (spec) : NULL;

  if (words != NULL)
    ds_write_confirm_dialog_set_erase (DS_WRITE_CONFIRM_DIALOG (dialog), words);

  g_weak_ref_init (&pending->window, self);
  ds_bench_spec_copy (&pending->spec, spec);
  g_signal_connect_data (dialog, "confirmed", G_CALLBACK (write_confirmed_cb),
                         pending, pending_write_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A script's confirmation: the gate's own rule and words, as for
 * diskscope-cli's --destroy-data=TARGET (a path, a link to it, its name). */
static gboolean
confirm_scripted (DsBenchSpec  *spec,
                  const char   *destroy_data,
                  GError      **error)
{
  if (!ds_target_check_write (spec->target_path, destroy_data, error))
    return FALSE;

  g_free (spec->destroy_data);
  spec->destroy_data = g_strdup (destroy_data);
  return TRUE;
}

/* After the page has added its choices: run, ask, or refuse.  A script
 * (@scripted) is never asked: its @destroy_data confirms, or it is
 * refused. */
static gboolean
start_spec (DsWindow     *self,
            DsBenchSpec  *spec,
            gboolean      scripted,
            const char   *destroy_data,
            GError      **error)
{
  g_autoptr(GError) refusal = NULL;

  if (!ds_session_check_spec (self->session, spec, error))
    return FALSE;

  switch (ds_session_check_write (self->session, spec, &refusal))
    {
    case DS_WRITE_REFUSED:
      if (scripted)
        {
          g_propagate_error (error, g_steal_pointer (&refusal));
          return FALSE;
        }
      ds_write_confirm_dialog_refuse (GTK_WINDOW (self), refusal->message);
      return TRUE;

    case DS_WRITE_CONFIRM:
      if (scripted)
        return confirm_scripted (spec, destroy_data, error) &&
               ds_session_start_checked (self->session, spec, error);
      confirm_write (self, spec);
      return TRUE;

    case DS_WRITE_NONE:
    default:
      return ds_session_start_checked (self->session, spec, error);
    }
}

static gboolean
start_visible (DsWindow    *self,
               gboolean     scripted,
               const char  *destroy_data,
               GError     **error)
{
  DsBenchSpec spec;
  DsPage *page = _ds_window_get_visible_page (self);
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  DsBenchKind kind = info != NULL ? info->kind : DS_BENCH_N_KINDS;
  gboolean needs_device, ok;

  /* A page that runs its own test (the monitor). */
  if (page != NULL && kind >= DS_BENCH_N_KINDS && ds_page_can_start (page))
    {
      if (_ds_window_is_running (self))
        {
          g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A test is already running."));
          return FALSE;
        }
      if (!ds_page_start (page, self->device_path, error))
        return FALSE;
      _ds_window_page_started (self);
      return TRUE;
    }

  if (page == NULL || kind >= DS_BENCH_N_KINDS)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_UNSUPPORTED, _("This page has no test to run."));
      return FALSE;
    }

  needs_device = ds_session_kind_needs_device (kind);
  if (needs_device && self->device_path == NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("Choose a device first."));
      return FALSE;
    }

  ds_session_init_spec (self->session, &spec, kind, needs_device ? self->device_path : NULL);
  ok = ds_page_configure (page, &spec, error) &&
       start_spec (self, &spec, scripted, destroy_data, error);
  ds_bench_spec_clear (&spec);

  return ok;
}

gboolean
ds_window_start (DsWindow  *self,
                 GError   **error)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  return start_visible (self, FALSE, NULL, error);
}

gboolean
ds_window_start_confirmed (DsWindow    *self,
                           const char  *destroy_data,
                           GError     **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (start_visible (self, TRUE, destroy_data, &local))
    return TRUE;

  /* On the page too, as Start shows it: a screenshot says why nothing ran. */
  _ds_window_show_start_error (self, local->message);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* ---- A script's settings ------------------------------------------------ */

gboolean
ds_window_set_page_option (DsWindow    *self,
                           const char  *option,
                           const char  *value,
                           GError     **error)
{
  DsPage *page;
  const DsPageInfo *info;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (option != NULL, FALSE);

  page = _ds_window_get_visible_page (self);
  info = _ds_window_get_visible_info (self);
  if (page != NULL && ds_page_set_option (page, option, value, &local))
    return TRUE;

  /* Named by the page's title, which the page itself does not know. */
  if (page == NULL || g_error_matches (local, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
                   _("--%s is not a setting of the %s page"), option,
                   info != NULL ? _(info->title) : "?");
      return FALSE;
    }

  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}
