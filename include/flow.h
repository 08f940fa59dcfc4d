/* flow.h - from vertical lists to pages.
 *
 * cv_flow() cuts each column of a composed résumé (compose.h) into pages
 * and places everything, producing the display list (display.h).  Breaks obey
 * the keep rules of compose.h: when no break on a page is allowed, the
 * weakest rule gives way first.  Space above an item is dropped when the
 * item starts a page, and gaps are never stretched (unless the layout's
 * pagination.fill_pages asks for it).
 *
 * Everything returned is allocated in the arena given and valid until
 * cv_arena_free().  Nothing here fails: an item taller than a page is
 * placed alone on its page (cv_compose() has warned about it).
 */
#ifndef CV_FLOW_H
#define CV_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "compose.h"
#include "display.h"
#include "style.h"
#include "wrap.h"

/* Why each page of a column starts where it does (--explain), and where
 * every item went (--fit-pages counts what overflows). */
typedef struct cv_break {
    int col;
    size_t page;             /* 0-based page the item starts */
    size_t item;             /* first item of that page */
    const char *reason;
} cv_break;

typedef struct cv_flowlog {
    cv_break *breaks;
    size_t nbreaks, cbreaks;
    size_t *page_of[CV_NCOLS];   /* page of each item of each column */
    const char **notes;          /* rules that had to give way */
    size_t nnotes, cnotes;
} cv_flowlog;

/* Paginate one list: out[i] is the page of item i.  `first` is the height
 * available on the first page, `full` on the others.  Fills `log` when it
 * is not NULL.  Returns the number of pages. */
size_t cv_paginate(cv_arena *a, const cv_vlist *vl, int col, float first, float full,
                   size_t *out, cv_flowlog *log);

/* Paginate every column of `c` without placing anything: page_of[k][i] is
 * the page of item i of column k.  Returns the number of pages. */
size_t cv_flow_pages(cv_arena *a, const cv_composed *c, const cv_style *st,
                     size_t **page_of, cv_flowlog *log);

/* Paginate and place the composed résumé; never fails (an item taller than
 * a page is placed alone on its page).  `log` may be NULL. */
cv_display *cv_flow(cv_arena *a, const cv_composed *c, const cv_style *st, cv_flowlog *log);


#endif
