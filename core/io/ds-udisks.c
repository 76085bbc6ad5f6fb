/* ds-udisks.c: a block device opened by udisks2 for a user without rights
 *
 * Three calls on the system bus, each waited for on a private main
 * context so that a run's cancel flag is seen while polkit waits for a
 * password: Manager.ResolveDevice (path -> object), the Block's
 * HintSystem (which polkit action applies, to name it when refused), and
 * Block.OpenDevice, whose reply carries the fd.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <string.h>

#include "ds-error.h"
#include "ds-udisks.h"

#define UDISKS_NAME         "org.freedesktop.UDisks2"
#define UDISKS_MANAGER      "/org/freedesktop/UDisks2/Manager"
#define UDISKS_MANAGER_IF   "org.freedesktop.UDisks2.Manager"
#define UDISKS_BLOCK_IF     "org.freedesktop.UDisks2.Block"
#define UDISKS_ERROR_PREFIX "org.freedesktop.UDisks2.Error."

#define ACTION_OPEN         "org.freedesktop.udisks2.open-device"
#define ACTION_OPEN_SYSTEM  "org.freedesktop.udisks2.open-device-system"

/* How often a waiting call looks at the run's cancel flag. */
#define CANCEL_POLL_MS      100
/* Lookups answer at once; OpenDevice may wait for a person to type a
 * password, for as long as they take (polkit's agent has its own limits). */
#define LOOKUP_TIMEOUT_MS   25000

/* ---- one call, waited for with the cancel flag in view ------------------ */

static void
call_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **ret_result = user_data;

  *ret_result = g_object_ref (result);
}

static gboolean
poll_tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;   /* only wakes the loop below */
}

static GVariant *
call_udisks (GDBusConnection     *bus,
             const char          *object_path,
             const char          *interface,
             const char          *method,
             GVariant            *parameters,
             const GVariantType  *reply_type,
             int                  timeout_ms,
             GUnixFDList        **ret_fds,
             const gint          *cancel,
             GError             **error)
{
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GSource) ticker = g_timeout_source_new (CANCEL_POLL_MS);
  GAsyncResult *result = NULL;
  GVariant *reply;

  g_main_context_push_thread_default (context);
  g_source_set_callback (ticker, poll_tick_cb, NULL, NULL);
  g_source_attach (ticker, context);

  g_dbus_connection_call_with_unix_fd_list (bus, UDISKS_NAME, object_path, interface,
                                            method, parameters, reply_type,
                                            G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                            timeout_ms, NULL, cancellable,
                                            call_done_cb, &result);
  while (result == NULL)
    {
      if (cancel != NULL && g_atomic_int_get (cancel) != 0)
        g_cancellable_cancel (cancellable);
      g_main_context_iteration (context, TRUE);
    }

  g_source_destroy (ticker);
  g_main_context_pop_thread_default (context);

  reply = g_dbus_connection_call_with_unix_fd_list_finish (bus, ret_fds, result, error);
  g_object_unref (result);

  return reply;
}

/* ---- what udisks2 said, in Diskscope's words ----------------------------- */

static void
set_refused (GError      **error,
             const char   *path,
             const char   *action,
             const char   *reason,
             const char   *detail)
{
  g_set_error (error, DS_ERROR, DS_ERROR_PERMISSION,
               _("%s: udisks2 may open it for you when polkit allows the action "
               "%s, and polkit did not (%s): %s"), path, action, reason, detail);
}

/* Turns a failed udisks2 call into a DsError; @action is the polkit action
 * that applied (NULL before the device was found). */
static void
set_udisks_error (GError     **error,
                  GError      *remote,
                  const char  *path,
                  const char  *action)
{
  g_autofree char *name = g_dbus_error_get_remote_error (remote);
  const char *reason = name != NULL && g_str_has_prefix (name, UDISKS_ERROR_PREFIX) ?
                       name + strlen (UDISKS_ERROR_PREFIX) : name;

  if (g_error_matches (remote, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_CANCELLED,
                   _("%s: stopped while waiting for udisks2"), path);
      return;
    }

  g_dbus_error_strip_remote_error (remote);
  if (g_strcmp0 (reason, "NotAuthorizedCanObtain") == 0)
    set_refused (error, path, action, reason,
                 "an administrator's password would allow it, but no "
                 "authentication agent answered. Run Diskscope in a desktop "
                 "session or the command in a terminal (both show a "
                 "password prompt), or let an administrator add a polkit "
                 "rule for this action");
  else if (g_strcmp0 (reason, "NotAuthorizedDismissed") == 0)
    set_refused (error, path, action, reason, "the password prompt was dismissed");
  else if (g_strcmp0 (reason, "NotAuthorized") == 0)
    set_refused (error, path, action, reason,
                 "the polkit rules do not allow it for this user; an "
                 "administrator may add a rule for this action");
  else if (strstr (remote->message, g_strerror (EBUSY)) != NULL ||
           strstr (remote->message, "Device or resource busy") != NULL)
    g_set_error (error, DS_ERROR, DS_ERROR_BUSY,
                 _("%s is in use by another program (mounted, or opened "
                 "exclusively)"), path);
  else if (g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
           g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
           g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
           g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND) ||
           (remote->domain == G_DBUS_ERROR && action == NULL))
    g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                 _("udisks2 is not available on the system bus (%s)"), remote->message);
  else
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: udisks2 could not open it: %s"), path, remote->message);
}

/* ---- the steps ----------------------------------------------------------- */

/* The udisks2 object of @path, or NULL (DS_ERROR_UNSUPPORTED when udisks2
 * does not know it: no udev, or not a block device). */
static char *
resolve_device (GDBusConnection  *bus,
                const char       *path,
                const gint       *cancel,
                GError          **error)
{
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GVariantIter) objects = NULL;
  g_autoptr (GError) local = NULL;
  GVariantBuilder spec;
  char *object = NULL;

  g_variant_builder_init (&spec, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&spec, "{sv}", "path", g_variant_new_string (path));
  reply = call_udisks (bus, UDISKS_MANAGER, UDISKS_MANAGER_IF, "ResolveDevice",
                       g_variant_new ("(a{sv}a{sv})", &spec, NULL),
                       G_VARIANT_TYPE ("(ao)"), LOOKUP_TIMEOUT_MS, NULL, cancel, &local);
  if (reply == NULL)
    {
      set_udisks_error (error, local, path, NULL);
      return NULL;
    }

  g_variant_get (reply, "(ao)", &objects);
  if (!g_variant_iter_next (objects, "o", &object))
    g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                 _("udisks2 does not know %s (is udev running?)"), path);

  return object;
}

/* The polkit action OpenDevice checks for @object: the -system one for
 * a disk udisks2 counts as the system's (HintSystem). */
static const char *
open_action (GDBusConnection *bus,
             const char      *object,
             const gint      *cancel)
{
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GVariant) value = NULL;

  reply = call_udisks (bus, object, "org.freedesktop.DBus.Properties", "Get",
                       g_variant_new ("(ss)", UDISKS_BLOCK_IF, "HintSystem"),
                       G_VARIANT_TYPE ("(v)"), LOOKUP_TIMEOUT_MS, NULL, cancel, NULL);
  if (reply == NULL)
    return ACTION_OPEN_SYSTEM;   /* what most disks are */

  g_variant_get (reply, "(v)", &value);
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN) && !g_variant_get_boolean (value))
    return ACTION_OPEN;

  return ACTION_OPEN_SYSTEM;
}

int
ds_udisks_open_device (const char           *path,
                       gboolean              write,
                       const DsTargetAccess *access,
                       GError              **error)
{
  static const DsTargetAccess none = { 0 };
  const gint *cancel;
  g_autoptr (GDBusConnection) bus = NULL;
  g_autoptr (GUnixFDList) fds = NULL;
  g_autoptr (GVariant) reply = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *object = NULL;
  GVariantBuilder options;
  const char *action;
  gint32 handle;
  int fd;
  int flags = O_DIRECT | (write ? O_EXCL : 0);

  g_return_val_if_fail (path != NULL, -1);

  if (access == NULL)
    access = &none;
  cancel = access->cancel;
  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &local);
  if (bus == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("no system bus to ask udisks2 (%s)"), local->message);
      return -1;
    }

  object = resolve_device (bus, path, cancel, error);
  if (object == NULL)
    return -1;
  action = open_action (bus, object, cancel);

  /* udisks2 2.9 passes "flags" to open(2) as they are, with the access
   * mode from "mode" (it refuses O_RDONLY/O_WRONLY/O_RDWR in flags). */
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "flags", g_variant_new_int32 (flags));
  if (access->agent_begin != NULL)
    access->agent_begin (access->agent_data);
  if (access->notice != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Waiting for permission to open %s…"), path);

      access->notice (text, access->notice_data);
    }
  reply = call_udisks (bus, object, UDISKS_BLOCK_IF, "OpenDevice",
                       g_variant_new ("(sa{sv})", write ? "rw" : "r", &options),
                       G_VARIANT_TYPE ("(h)"), G_MAXINT, &fds, cancel, &local);
  if (access->notice != NULL)
    access->notice (NULL, access->notice_data);
  if (access->agent_end != NULL)
    access->agent_end (access->agent_data);
  if (reply == NULL)
    {
      set_udisks_error (error, local, path, action);
      return -1;
    }

  g_variant_get (reply, "(h)", &handle);
  if (fds == NULL || handle < 0 || handle >= g_unix_fd_list_get_length (fds))
    {
      g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                   _("%s: udisks2 answered without a file descriptor"), path);
      return -1;
    }

  /* A dup, close-on-exec; the list closes its own copy. */
  fd = g_unix_fd_list_get (fds, handle, &local);
  if (fd < 0)
    g_set_error (error, DS_ERROR, DS_ERROR_FAILED,
                 _("%s: the file descriptor from udisks2 is unusable: %s"), path, local->message);

  return fd;
}
