/* ds-tab-stop.c: a list that Tab enters and leaves as one stop
 *
 * GTK 4's GtkListBox gives every row a Tab stop.  In the window's page
 * list a row that takes the focus also becomes the shown page, so
 * tabbing from the header bar to a page's controls walked through every
 * page and landed on the last one: the page a keyboard user had chosen
 * could not be reached by Tab at all.  Wrapped in a DsTabStop (a bin, in
 * the .ui file), the list is one stop: Tab enters it on the selected row
 * and the next Tab leaves it; the arrow keys move between the rows (and
 * so the pages) as before, and Alt+1…9 still jump to a page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "ds-tab-stop.h"

struct _DsTabStop
{
  GtkWidget parent_instance;
};

static void ds_tab_stop_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsTabStop, ds_tab_stop, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE,
                                                      ds_tab_stop_buildable_init))

static GtkBuildableIface *parent_buildable;

static GtkListBox *
find_list (GtkWidget *widget)
{
  if (GTK_IS_LIST_BOX (widget))
    return GTK_LIST_BOX (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkListBox *list = find_list (child);

      if (list != NULL)
        return list;
    }
  return NULL;
}

static gboolean
ds_tab_stop_focus (GtkWidget        *widget,
                   GtkDirectionType  direction)
{
  GtkWidget *child = gtk_widget_get_first_child (widget);
  GtkListBox *list;
  GtkListBoxRow *row;

  if (child == NULL)
    return FALSE;
  if (direction != GTK_DIR_TAB_FORWARD && direction != GTK_DIR_TAB_BACKWARD)
    return gtk_widget_child_focus (child, direction);

  /* Inside: the next Tab leaves.  Outside: enter on the selected row. */
  if (gtk_widget_get_focus_child (widget) != NULL)
    return FALSE;
  list = find_list (child);
  row = list != NULL ? gtk_list_box_get_selected_row (list) : NULL;
  if (row != NULL && gtk_widget_is_sensitive (GTK_WIDGET (row)) &&
      gtk_widget_grab_focus (GTK_WIDGET (row)))
    return TRUE;
  return gtk_widget_child_focus (child, direction);
}

static void
ds_tab_stop_add_child (GtkBuildable *buildable,
                       GtkBuilder   *builder,
                       GObject      *child,
                       const char   *type)
{
  if (GTK_IS_WIDGET (child))
    gtk_widget_set_parent (GTK_WIDGET (child), GTK_WIDGET (buildable));
  else
    parent_buildable->add_child (buildable, builder, child, type);
}

static void
ds_tab_stop_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable = g_type_interface_peek_parent (iface);
  iface->add_child = ds_tab_stop_add_child;
}

static void
ds_tab_stop_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (ds_tab_stop_parent_class)->dispose (object);
}

static void
ds_tab_stop_class_init (DsTabStopClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_tab_stop_dispose;
  widget_class->focus = ds_tab_stop_focus;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
ds_tab_stop_init (DsTabStop *self)
{
}
