/* ds-mark-data.c: a Workloads result's steps and data, made, copied and
 * freed (see ds-bench-mark.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-bench-mark.h"

DsMarkStep *
ds_mark_step_new (void)
{
  DsMarkStep *step = g_new0 (DsMarkStep, 1);

  step->runs = g_array_new (FALSE, TRUE, sizeof (DsMarkRun));
  return step;
}

void
ds_mark_step_free (DsMarkStep *step)
{
  if (step == NULL)
    return;

  g_free (step->id);
  g_free (step->row_id);
  g_free (step->label);
  g_clear_pointer (&step->runs, g_array_unref);
  g_clear_pointer (&step->result, ds_workload_data_free);
  g_free (step);
}

static GArray *
array_copy (const GArray *array)
{
  GArray *copy;

  if (array == NULL)
    return NULL;

  copy = g_array_sized_new (FALSE, FALSE, g_array_get_element_size ((GArray *) array), array->len);
  g_array_append_vals (copy, array->data, array->len);
  return copy;
}

static DsWorkloadData *
workload_data_copy (const DsWorkloadData *data)
{
  DsWorkloadData *copy;

  if (data == NULL)
    return NULL;

  copy = ds_workload_data_new ();
  *copy = *data;
  copy->engine = g_strdup (data->engine);
  copy->read.histogram = array_copy (data->read.histogram);
  copy->write.histogram = array_copy (data->write.histogram);
  copy->series = array_copy (data->series);
  return copy;
}

DsMarkStep *
ds_mark_step_copy (const DsMarkStep *step)
{
  DsMarkStep *copy = g_new (DsMarkStep, 1);

  *copy = *step;
  copy->id = g_strdup (step->id);
  copy->row_id = g_strdup (step->row_id);
  copy->label = g_strdup (step->label);
  copy->runs = array_copy (step->runs);
  copy->result = workload_data_copy (step->result);
  return copy;
}

DsMarkData *
ds_mark_data_new (void)
{
  DsMarkData *data = g_new0 (DsMarkData, 1);

  data->mix_percent = -1;
  data->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_mark_step_free);
  return data;
}

void
ds_mark_data_free (DsMarkData *data)
{
  if (data == NULL)
    return;

  g_free (data->preset);
  g_free (data->comment);
  g_free (data->os);
  g_free (data->directory);
  g_clear_pointer (&data->steps, g_ptr_array_unref);
  g_free (data);
}
