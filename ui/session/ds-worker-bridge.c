/* ds-worker-bridge.c: what a worker thread produces, handed to the main loop
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-worker-bridge.h"

struct _DsWorkerBridge
{
  GMutex                mutex;
  GCond                 cond;
  gpointer              batch;            /* under the mutex */
  gboolean              flush_scheduled;  /* under the mutex */
  gboolean              running;          /* under the mutex */
  gint                  cancel;           /* atomic: the core's flag */
  GMainContext         *context;          /* where flushes run */
  GWeakRef              owner;
  guint                 generation;       /* main thread: bumped by cancel */
  guint                 run_generation;   /* main thread: at begin */
  guint                 delay_ms;
  const char           *source_name;
  DsWorkerBatchNew      batch_new;
  GDestroyNotify        batch_free;
  DsWorkerBatchDeliver  deliver;
};

static void
bridge_clear (gpointer data)
{
  DsWorkerBridge *self = data;

  g_mutex_clear (&self->mutex);
  g_cond_clear (&self->cond);
  g_clear_pointer (&self->batch, self->batch_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_weak_ref_clear (&self->owner);
}

DsWorkerBridge *
ds_worker_bridge_new (gpointer              owner,
                      guint                 delay_ms,
                      const char           *source_name,
                      DsWorkerBatchNew      batch_new,
                      GDestroyNotify        batch_free,
                      DsWorkerBatchDeliver  deliver)
{
  DsWorkerBridge *self = g_atomic_rc_box_new0 (DsWorkerBridge);

  g_mutex_init (&self->mutex);
  g_cond_init (&self->cond);
  self->batch_new = batch_new;
  self->batch_free = batch_free;
  self->deliver = deliver;
  self->batch = batch_new ();
  self->delay_ms = delay_ms;
  self->source_name = source_name;
  self->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&self->owner, owner);

  return self;
}

DsWorkerBridge *
ds_worker_bridge_ref (DsWorkerBridge *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
ds_worker_bridge_unref (DsWorkerBridge *self)
{
  g_atomic_rc_box_release_full (self, bridge_clear);
}

void
ds_worker_bridge_begin (DsWorkerBridge *self)
{
  g_mutex_lock (&self->mutex);
  self->running = TRUE;
  g_mutex_unlock (&self->mutex);
  self->run_generation = self->generation;
}

void
ds_worker_bridge_end (DsWorkerBridge *self)
{
  g_mutex_lock (&self->mutex);
  self->running = FALSE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->mutex);
}

gboolean
ds_worker_bridge_is_running (DsWorkerBridge *self)
{
  gboolean running;

  g_mutex_lock (&self->mutex);
  running = self->running;
  g_mutex_unlock (&self->mutex);

  return running;
}

void
ds_worker_bridge_wait (DsWorkerBridge *self)
{
  g_mutex_lock (&self->mutex);
  while (self->running)
    g_cond_wait (&self->cond, &self->mutex);
  g_mutex_unlock (&self->mutex);
}

gint *
ds_worker_bridge_get_cancel_flag (DsWorkerBridge *self)
{
  return &self->cancel;
}

void
ds_worker_bridge_cancel (DsWorkerBridge *self)
{
  /* Deliveries still queued belong to the run being cancelled. */
  self->generation++;
  g_atomic_int_set (&self->cancel, 1);
}

void
ds_worker_bridge_stop (DsWorkerBridge *self)
{
  g_atomic_int_set (&self->cancel, 1);
}

gpointer
ds_worker_bridge_lock (DsWorkerBridge *self)
{
  g_mutex_lock (&self->mutex);
  return self->batch;
}

/* The owner, if it is alive and still wants this run's news. */
static gpointer
dup_current_owner (DsWorkerBridge *self)
{
  gpointer owner = g_weak_ref_get (&self->owner);

  if (owner != NULL && self->run_generation != self->generation)
    g_clear_object (&owner);
  return owner;
}

void
ds_worker_bridge_flush (DsWorkerBridge *self)
{
  gpointer batch;
  gpointer owner;

  g_mutex_lock (&self->mutex);
  self->flush_scheduled = FALSE;
  batch = self->batch;
  self->batch = self->batch_new ();
  g_mutex_unlock (&self->mutex);

  /* Nobody to tell, or a cancelled run's: dropped. */
  owner = dup_current_owner (self);
  if (owner != NULL)
    self->deliver (owner, batch);
  g_clear_object (&owner);
  self->batch_free (batch);
}

static gboolean
flush_cb (gpointer data)
{
  ds_worker_bridge_flush (data);
  return G_SOURCE_REMOVE;
}

void
ds_worker_bridge_unlock (DsWorkerBridge *self)
{
  gboolean schedule = !self->flush_scheduled;
  g_autoptr(GSource) source = NULL;

  self->flush_scheduled = TRUE;
  g_mutex_unlock (&self->mutex);
  if (!schedule)
    return;

  source = self->delay_ms > 0 ? g_timeout_source_new (self->delay_ms) : g_idle_source_new ();
  g_source_set_callback (source, flush_cb, ds_worker_bridge_ref (self),
                         (GDestroyNotify) ds_worker_bridge_unref);
  g_source_set_static_name (source, self->source_name);
  g_source_attach (source, self->context);
}

typedef struct {
  DsWorkerBridge     *bridge;
  DsWorkerBridgeFunc  func;
  gpointer            data;
  GDestroyNotify      free_data;
} Post;

static void
post_free (gpointer data)
{
  Post *post = data;

  if (post->free_data != NULL)
    post->free_data (post->data);
  ds_worker_bridge_unref (post->bridge);
  g_free (post);
}

static gboolean
post_cb (gpointer data)
{
  Post *post = data;
  gpointer owner = dup_current_owner (post->bridge);

  if (owner != NULL)
    post->func (owner, post->data);
  g_clear_object (&owner);
  return G_SOURCE_REMOVE;
}

void
ds_worker_bridge_post (DsWorkerBridge     *self,
                       DsWorkerBridgeFunc  func,
                       gpointer            data,
                       GDestroyNotify      free_data)
{
  g_autoptr(GSource) source = g_idle_source_new ();
  Post *post = g_new0 (Post, 1);

  post->bridge = ds_worker_bridge_ref (self);
  post->func = func;
  post->data = data;
  post->free_data = free_data;
  /* Before the run's end, which GTask hands over at the default priority
   * (an idle source's own is lower). */
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, post_cb, post, post_free);
  g_source_set_static_name (source, self->source_name);
  g_source_attach (source, self->context);
}
