/* ds-device-monitor.c: block devices coming and going (kernel uevents
 * through libudev's netlink monitor; works without udevd)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>

#include <libudev.h>

#include "ds-device.h"
#include "ds-error.h"

struct _DsDeviceMonitor {
  struct udev         *udev;
  struct udev_monitor *monitor;
};

DsDeviceMonitor *
ds_device_monitor_new (GError **error)
{
  g_autoptr (DsDeviceMonitor) self = g_new0 (DsDeviceMonitor, 1);
  int rc;

  self->udev = udev_new ();
  if (self->udev == NULL)
    {
      ds_set_error_from_errno (error, errno ? errno : ENOMEM, "udev");
      return NULL;
    }

  /* "kernel": raw uevents from the kernel, so this works without udevd
   * (but before udev rules have run: re-read, do not trust properties). */
  self->monitor = udev_monitor_new_from_netlink (self->udev, "kernel");
  if (self->monitor == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("Cannot watch for devices coming and going: kernel "
                   "uevents are not available here (%s)"), g_strerror (errno));
      return NULL;
    }

  rc = udev_monitor_filter_add_match_subsystem_devtype (self->monitor, "block", NULL);
  if (rc >= 0)
    rc = udev_monitor_enable_receiving (self->monitor);
  if (rc < 0)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("Cannot watch for devices coming and going: %s"),
                   g_strerror (-rc));
      return NULL;
    }

  /* The socket is non-blocking already (libudev opens it with
   * SOCK_NONBLOCK); make sure, drain must never block. */
  {
    int fd = udev_monitor_get_fd (self->monitor);
    int fl = fcntl (fd, F_GETFL);

    if (fl >= 0 && !(fl & O_NONBLOCK))
      (void) fcntl (fd, F_SETFL, fl | O_NONBLOCK);
  }

  return g_steal_pointer (&self);
}

int
ds_device_monitor_get_fd (DsDeviceMonitor *monitor)
{
  g_return_val_if_fail (monitor != NULL, -1);

  return udev_monitor_get_fd (monitor->monitor);
}

gboolean
ds_device_monitor_drain (DsDeviceMonitor *monitor)
{
  struct udev_device *event;
  gboolean any = FALSE;

  g_return_val_if_fail (monitor != NULL, FALSE);

  while ((event = udev_monitor_receive_device (monitor->monitor)) != NULL)
    {
      if (g_strcmp0 (udev_device_get_subsystem (event), "block") == 0)
        any = TRUE;
      udev_device_unref (event);
    }

  return any;
}

void
ds_device_monitor_free (DsDeviceMonitor *monitor)
{
  if (monitor == NULL)
    return;

  if (monitor->monitor != NULL)
    udev_monitor_unref (monitor->monitor);
  if (monitor->udev != NULL)
    udev_unref (monitor->udev);
  g_free (monitor);
}

