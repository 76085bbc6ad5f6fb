/* ds-target.c (stub) */
#include "config.h"
#include "ds-target.h"
#include "ds-error.h"
DsTarget *ds_target_open (const char *path, DsTargetOpenFlags flags, const char *confirm, GError **error) { g_set_error (error, DS_ERROR, DS_ERROR_FAILED, "not yet"); return NULL; }
void ds_target_free (DsTarget *target) { }
gboolean ds_target_check_write (const char *path, const char *confirm, GError **error) { g_set_error (error, DS_ERROR, DS_ERROR_REFUSED, "not yet"); return FALSE; }
