/* ds-settings.h: the app's GSettings, installed or from the build tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The settings of APPLICATION_ID on @backend (NULL: the default one).
 * The installed schema is used when there is one; a binary run from its
 * build tree (build/app/diskscope, the tests) falls back to the schema
 * compiled next to it, so it starts without GSETTINGS_SCHEMA_DIR.  NULL
 * with @error when neither exists. */
GSettings *ds_settings_new (GSettingsBackend  *backend,
                            GError           **error);

G_END_DECLS
