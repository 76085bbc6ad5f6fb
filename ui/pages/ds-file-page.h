/* ds-file-page.h: HD Tune's File Benchmark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_FILE_PAGE (ds_file_page_get_type ())
G_DECLARE_FINAL_TYPE (DsFilePage, ds_file_page, DS, FILE_PAGE, GtkWidget)

const char *ds_file_page_get_folder (DsFilePage *self);
void        ds_file_page_set_folder (DsFilePage *self,
                                     const char *folder);

G_END_DECLS
