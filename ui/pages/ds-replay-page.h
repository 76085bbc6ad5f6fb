/* ds-replay-page.h: the Replay page (a captured workload replayed on a
 * disk, side by side with how it ran when it was recorded)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_REPLAY_PAGE (ds_replay_page_get_type ())
G_DECLARE_FINAL_TYPE (DsReplayPage, ds_replay_page, DS, REPLAY_PAGE, GtkWidget)

/* The trace the page replays (NULL: none yet). */
const char *ds_replay_page_get_trace   (DsReplayPage *self);
/* What the page says of the replay or the trace, as shown. */
const char *ds_replay_page_get_finding (DsReplayPage *self);
/* Whether a capture or a trace's profile is under way. */
gboolean    ds_replay_page_is_loading  (DsReplayPage *self);

G_END_DECLS
