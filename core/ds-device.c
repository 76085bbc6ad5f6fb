/* ds-device.c (stub) */
#include "config.h"
#include "ds-device.h"
#include "ds-error.h"
void ds_device_free (DsDevice *device) { (void) device; }
GPtrArray *ds_device_list (GError **error) { g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "not yet"); return NULL; }
DsDevice *ds_device_lookup (const char *path, GError **error) { g_set_error (error, DS_ERROR, DS_ERROR_NOT_FOUND, "%s: not yet", path); return NULL; }
gboolean ds_device_in_use (const DsDevice *device, char **ret_reason) { return FALSE; }
const char *ds_device_type_to_string (DsDeviceType type) { return "disk"; }
char *ds_device_describe (const DsDevice *device) { return g_strdup (device->path); }
DsDeviceMonitor *ds_device_monitor_new (GError **error) { g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "not yet"); return NULL; }
int ds_device_monitor_get_fd (DsDeviceMonitor *monitor) { return -1; }
gboolean ds_device_monitor_drain (DsDeviceMonitor *monitor) { return FALSE; }
void ds_device_monitor_free (DsDeviceMonitor *monitor) { }
