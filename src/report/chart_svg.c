/* chart_svg: charts as one standalone SVG file (--plot FILE.svg), a panel
 * per chart under a title. Each panel's plot area is drawn by the page's
 * own writer (html_chart_area), so the file and the page cannot show
 * different lines, and no program runs (--plot once needed gnuplot). The
 * file carries the page's light colours and fonts inline: it is read
 * alone, by a browser, an image viewer or a document. */
#include "report/doc_chart.h"

#include <string.h>

#include "base/err.h"
#include "base/file.h"
#include "report/html.h"

#define SVG_W 820        /* the file's width, px */
#define TITLE_H 30       /* the file's title line */
#define CAPTION_H 22     /* a panel's title line */
#define LEGEND_LINE 15   /* a legend line per series */
#define PANEL_GAP 18

/* The page's stylesheet for the charts (html.c), its light colours
 * written out: a file has no theme to follow. */
static const char style[] =
    "<style>text{fill:#5b6570;font:11px system-ui,sans-serif}"
    ".title{fill:#1b1f24;font:bold 15px system-ui,sans-serif}"
    ".caption{fill:#1b1f24;font:bold 12px system-ui,sans-serif}"
    ".axis{stroke:#d0d7de}.grid{stroke:#d0d7de;stroke-dasharray:2 3}"
    ".shade{fill:rgba(120,120,120,.15)}.mark{stroke:#c62828;stroke-dasharray:5 3;"
    "stroke-width:1.5}path[class]{fill:none;vector-effect:non-scaling-stroke}"
    "path.d1,line.d1{stroke-dasharray:7 4}path.d2,line.d2{stroke-dasharray:2 3}"
    "path.d3,line.d3{stroke-dasharray:8 3 2 3}"
    ".s0{stroke:#1f6fd1;fill:#1f6fd1}.s1{stroke:#d6452a;fill:#d6452a}"
    ".s2{stroke:#2a9d3a;fill:#2a9d3a}.s3{stroke:#8e44ad;fill:#8e44ad}"
    ".s4{stroke:#e08a00;fill:#e08a00}.s5{stroke:#00838f;fill:#00838f}"
    ".s6{stroke:#6d4c41;fill:#6d4c41}.s7{stroke:#c2185b;fill:#c2185b}</style>\n";

/* The series c draws (DOC_CHART_MAX_SERIES at most). */
static int series_of(const struct doc_chart *c)
{
    return c->ns > DOC_CHART_MAX_SERIES ? DOC_CHART_MAX_SERIES : c->ns;
}

/* A panel's height, px: its title, the plot with its labels, its legend. */
static int panel_height(const struct doc_chart *c)
{
    struct html_chart_box b;
    html_chart_box(c, &b);
    return CAPTION_H + b.pad_top + (int)b.height + b.pad_bottom + LEGEND_LINE * series_of(c) +
           PANEL_GAP;
}

/* Each series' key under the plot: a short line in its style, its name. */
static void legend(FILE *out, const struct doc_chart *c, int y)
{
    for (int k = 0; k < series_of(c); k++, y += LEGEND_LINE) {
        char cls[16];
        html_chart_class(c, k, cls, sizeof cls);
        fprintf(out, "<line class=\"%s\" style=\"stroke-width:2px\" x1=\"52\" x2=\"76\" "
                     "y1=\"%d\" y2=\"%d\"/><text x=\"82\" y=\"%d\">", cls, y - 4, y - 4, y);
        html_esc(out, c->s[k].name);
        fputs(c->s[k].axis ? " (right axis)</text>\n" : "</text>\n", out);
    }
}

/* One chart at y px from the file's top. @return the y after it. */
static int panel(FILE *out, const struct doc_chart *c, int y)
{
    int drawn = 0;
    for (int k = 0; k < series_of(c); k++)
        drawn |= doc_series_drawn(&c->s[k]);
    fprintf(out, "<g id=\"");
    html_esc(out, c->id);
    fprintf(out, "\" transform=\"translate(0,%d)\">\n<text class=\"caption\" x=\"12\" "
                 "y=\"15\">", y);
    html_esc(out, c->title);
    fputs("</text>\n", out);
    struct html_chart_box b;
    html_chart_box(c, &b);
    fprintf(out, "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.0f\" overflow=\"visible\">\n",
            b.pad_left, CAPTION_H + b.pad_top, SVG_W - b.pad_left - b.pad_right, b.height);
    html_chart_area(out, c);
    if (!drawn) /* say so, rather than an empty frame */
        fprintf(out, "<text x=\"50%%\" y=\"%.0f\" text-anchor=\"middle\">no value to draw"
                     "</text>\n", b.height / 2);
    fputs("</svg>\n", out);
    legend(out, c, CAPTION_H + b.pad_top + (int)b.height + b.pad_bottom + LEGEND_LINE - 4);
    fputs("</g>\n", out);
    return y + panel_height(c);
}

int doc_chart_svg(const char *path, const struct doc_chart *c, int n, const char *title,
                  char *err)
{
    if (n < 1) {
        snprintf(err, ERR_LEN, "%s: no chart to draw", path);
        return -1;
    }
    int h = TITLE_H;
    for (int k = 0; k < n; k++)
        h += panel_height(&c[k]);
    FILE *out = file_create(path, err);
    if (!out)
        return -1;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/"
                 "2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<title>",
            SVG_W, h, SVG_W, h);
    html_esc(out, title);
    fprintf(out, "</title>\n%s<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
                 "<text class=\"title\" x=\"12\" y=\"21\">", style);
    html_esc(out, title);
    fputs("</text>\n", out);
    int y = TITLE_H;
    for (int k = 0; k < n; k++)
        y = panel(out, &c[k], y);
    fputs("</svg>\n", out);
    return file_close_checked(out, path, err);
}
