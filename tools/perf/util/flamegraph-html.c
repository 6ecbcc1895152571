// SPDX-License-Identifier: MIT
/*
 * The flame graph as one HTML file that works with no network: d3 and
 * d3-flame-graph (installed from npm by tools/build/install-deps.sh) are
 * copied into the page from their installed files, with their licenses, and
 * a Content-Security-Policy forbids every load from elsewhere.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "debug.h"
#include "flamegraph.h"
#include "util.h"

/* what the page needs from node_modules; version is a prefix of package.json's */
static const struct fg_lib {
	const char *pkg, *script, *version;
	bool license_required;
} fg_libs[] = {
	{ "d3", "d3/dist/d3.min.js", "7.", true },
	{ "d3-flame-graph", "d3-flame-graph/dist/d3-flamegraph.umd.min.js", "5.0.0", true },
	/* bundled into d3.min.js: their notices travel with it */
	{ "internmap", NULL, NULL, false },
	{ "delaunator", NULL, NULL, false },
	{ "robust-predicates", NULL, NULL, false },
};

#define FG_INSTALL_HINT "run `make deps` (tools/build/install-deps.sh: npm ci in tools/build/npm) " \
	"or set PERF_FLAMEGRAPH_LIBS to a node_modules directory holding d3 7 and d3-flame-graph 5.0.0; " \
	"--format json needs neither"

static bool lib_dir_ok(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, fg_libs[0].script);
	return access(path, R_OK) == 0;
}

char *flamegraph__find_libs(const char *exec_path)
{
	const char *env = getenv("PERF_FLAMEGRAPH_LIBS");
	char exe[PATH_MAX], *slash, *dir;

	if (env && *env) {
		if (lib_dir_ok(env))
			return xstrdup(env);
		pr_err("PERF_FLAMEGRAPH_LIBS=%s has no %s: %s\n", env, fg_libs[0].script, FG_INSTALL_HINT);
		return NULL;
	}
	snprintf(exe, sizeof(exe), "%s", exec_path ? exec_path : "");
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(exe, sizeof(exe), ".");
	/* tools/perf/perf of a built tree: the deps step installs into tools/build/npm */
	dir = xasprintf("%s/../build/npm/node_modules", exe);
	if (lib_dir_ok(dir))
		return dir;
	pr_err("flame graph libraries not found (looked for %s/%s): %s\n", dir, fg_libs[0].script,
	       FG_INSTALL_HINT);
	free(dir);
	return NULL;
}

/* the "version" of a package.json, or NULL */
static char *package_version(const char *dir, const char *pkg)
{
	char *path = xasprintf("%s/%s/package.json", dir, pkg), *text, *p, *end, *v = NULL;

	text = read_file(path, NULL);
	free(path);
	if (!text)
		return NULL;
	p = strstr(text, "\"version\"");
	if (p && (p = strchr(p + 9, '"')) && (end = strchr(p + 1, '"')))
		v = strndup(p + 1, (size_t)(end - p - 1));
	free(text);
	return v;
}

static int load_libs(const char *dir, char **scripts, char **licenses)
{
	for (size_t i = 0; i < ARRAY_SIZE(fg_libs); i++) {
		const struct fg_lib *l = &fg_libs[i];
		char *path;

		if (l->script) {
			char *v = package_version(dir, l->pkg);

			if (!v || !str_starts_with(v, l->version)) {
				pr_err("%s/%s is version %s, the page is made for %s*: %s\n", dir, l->pkg,
				       v ? v : "(unknown)", l->version, FG_INSTALL_HINT);
				free(v);
				return -1;
			}
			free(v);
			path = xasprintf("%s/%s", dir, l->script);
			scripts[i] = read_file(path, NULL);
			if (!scripts[i]) {
				pr_err("cannot read %s: %s; %s\n", path, strerror(errno), FG_INSTALL_HINT);
				free(path);
				return -1;
			}
			free(path);
		}
		path = xasprintf("%s/%s/LICENSE", dir, l->pkg);
		licenses[i] = read_file(path, NULL);
		if (!licenses[i] && l->license_required) {
			pr_err("%s missing: the page cannot be made without the license of %s; %s\n",
			       path, l->pkg, FG_INSTALL_HINT);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* s starts with "http:" or "https:" (any case): returns the length up to the ':' */
static size_t url_scheme_at(const char *s)
{
	if (strncasecmp(s, "http", 4))
		return 0;
	if (s[4] == ':')
		return 4;
	if ((s[4] == 's' || s[4] == 'S') && s[5] == ':')
		return 5;
	return 0;
}

/* at "http:" or "https:": writes the scheme and `colon` for its ':', leaves *p on the ':' */
static bool put_scheme(FILE *f, const char **p, const char *colon)
{
	size_t n = url_scheme_at(*p);

	if (!n)
		return false;
	fwrite(*p, 1, n, f);
	fputs(colon, f);
	*p += n;
	return true;
}

/*
 * A library into a <script>: the only change is that the ':' of "http:" in
 * its XML namespace strings and comments becomes the escape \x3a (the same
 * string to JavaScript), so that not even a namespace name looks like a link.
 */
static int write_script(FILE *f, const char *name, const char *text)
{
	if (strcasestr(text, "</script")) {
		pr_err("%s contains \"</script\" and cannot be inlined\n", name);
		return -1;
	}
	fputs("<script>\n", f);
	for (const char *p = text; *p; p++)
		if (!put_scheme(f, &p, "\\x3a"))
			fputc(*p, f);
	fputs("\n</script>\n", f);
	return 0;
}

/* text for HTML element content (also no "http:" as text) */
static void write_html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (put_scheme(f, &s, "&#58;"))
			continue;
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static const char page_style[] =
	"body { font-family: sans-serif; margin: 0 1em 2em; background: #fff; color: #222; }\n"
	"h1 { font-size: 1.15em; margin: .6em 0 .2em; word-break: break-all; }\n"
	".info { color: #555; font-size: .85em; margin: 0 0 .4em; }\n"
	".bar { display: flex; gap: .5em; align-items: center; flex-wrap: wrap; margin: .4em 0; }\n"
	".swatch { display: inline-block; width: .9em; height: .9em; vertical-align: middle;"
	" margin: 0 .25em 0 .8em; border: 1px solid #888; }\n"
	"#legend { font-size: .85em; }\n"
	"#details { min-height: 1.3em; font-size: .85em; color: #333; }\n"
	"#chart { width: 100%; }\n"
	".fg-tip { position: absolute; display: none; background: #fffbe8; border: 1px solid #999;"
	" padding: .3em .5em; font-size: 12px; max-width: 48em; pointer-events: none; z-index: 10;"
	" word-break: break-all; }\n"
	".tip-name { font-weight: bold; }\n"
	".tip-src { font-family: monospace; }\n"
	"details.licenses { margin-top: 2em; font-size: .8em; color: #555; }\n"
	"details.licenses pre { white-space: pre-wrap; }\n";

static const char page_body[] =
	"<div class=\"bar\"><input id=\"term\" type=\"search\" size=\"40\""
	" placeholder=\"search (regular expression), Enter\"><button id=\"search\">Search</button>"
	"<button id=\"clear\">Clear</button><button id=\"reset\">Reset zoom</button>"
	"<span id=\"legend\"></span></div>\n"
	"<div id=\"details\"></div>\n<div id=\"chart\"></div>\n<div id=\"tip\" class=\"fg-tip\"></div>\n";

static const char page_script[] =
	"(function () {\n"
	"  \"use strict\";\n"
	"  var t0 = performance.now();\n"
	"  var opts = JSON.parse(document.getElementById(\"fg-options\").textContent);\n"
	"  var data = JSON.parse(document.getElementById(\"fg-data\").textContent);\n"
	"  var KINDS = [\"all\", \"command\", \"Java, JIT-compiled\", \"Java, inlined by the JIT\",\n"
	"    \"interpreter / JVM stub\", \"native\", \"kernel\"];\n"
	"  /* [hue, saturation %, lightness %] of each kind (enum fg_kind) */\n"
	"  var PALETTES = {\n"
	"    \"blue-green\": [[0, 0, 72], [0, 0, 82], [125, 55, 50], [155, 55, 62], [185, 55, 52],\n"
	"      [215, 65, 64], [250, 35, 70]],\n"
	"    \"orange\": [[0, 0, 72], [0, 0, 82], [32, 90, 55], [48, 90, 60], [58, 75, 52],\n"
	"      [2, 75, 62], [18, 70, 45]]\n"
	"  };\n"
	"  var pal = PALETTES[opts.colorscheme] || PALETTES[\"blue-green\"];\n"
	"  var total = data.samples || 1;\n"
	"\n"
	"  function hash(s) {\n"
	"    var h = 0;\n"
	"    for (var i = 0; i < s.length; i++)\n"
	"      h = (h * 31 + s.charCodeAt(i)) | 0;\n"
	"    return (h >>> 0) / 4294967295;\n"
	"  }\n"
	"  function hsl(p, v) {\n"
	"    return \"hsl(\" + Math.round(p[0] + (v - 0.5) * 10) + \",\" + p[1] + \"%,\" +\n"
	"      Math.round(p[2] + (v - 0.5) * 14) + \"%)\";\n"
	"  }\n"
	"  function colour(d) {\n"
	"    if (d.highlight)\n"
	"      return \"#e600e6\";\n"
	"    return hsl(pal[d.data.k] || pal[5], hash(d.data.n || \"\"));\n"
	"  }\n"
	"  function pct(v) {\n"
	"    return (100 * v / total).toFixed(2) + \"%\";\n"
	"  }\n"
	"  function line(parent, text, cls) {\n"
	"    var div = document.createElement(\"div\");\n"
	"    div.textContent = text;\n"
	"    if (cls)\n"
	"      div.className = cls;\n"
	"    parent.appendChild(div);\n"
	"  }\n"
	"\n"
	"  /* our tooltip: name, kind, samples, DSO and the Java source lines */\n"
	"  var tipEl = document.getElementById(\"tip\");\n"
	"  function tip() { }\n"
	"  tip.show = function (event, d) {\n"
	"    var x = d.data, i;\n"
	"    tipEl.textContent = \"\";\n"
	"    line(tipEl, x.n, \"tip-name\");\n"
	"    line(tipEl, KINDS[x.k] || \"\");\n"
	"    line(tipEl, d.value + \" samples (\" + pct(d.value) + \"), \" + ((x.v || 0) - (x.x || 0)) + \" in the frame itself\");\n"
	"    if (x.x)\n"
	"      line(tipEl, x.x + \" in callees too small to draw (below 0.001%)\");\n"
	"    if (x.d !== undefined)\n"
	"      line(tipEl, \"DSO: \" + data.dsos[x.d]);\n"
	"    for (i = 0; x.s && i < x.s.length; i++)\n"
	"      line(tipEl, x.s[i][0] + \"  (\" + x.s[i][1] + \" samples)\", \"tip-src\");\n"
	"    tipEl.style.display = \"block\";\n"
	"    var left = event.pageX + 12, top = event.pageY + 12;\n"
	"    if (left + tipEl.offsetWidth > window.innerWidth + window.scrollX)\n"
	"      left = Math.max(5, event.pageX - tipEl.offsetWidth - 12);\n"
	"    tipEl.style.left = left + \"px\";\n"
	"    tipEl.style.top = top + \"px\";\n"
	"    return tip;\n"
	"  };\n"
	"  tip.hide = function () {\n"
	"    tipEl.style.display = \"none\";\n"
	"    return tip;\n"
	"  };\n"
	"\n"
	"  var make = typeof flamegraph === \"function\" ? flamegraph : flamegraph.default;\n"
	"  var chartEl = document.getElementById(\"chart\");\n"
	"  var chart = make()\n"
	"    .width(Math.max(640, chartEl.clientWidth || 1200))\n"
	"    .cellHeight(18)\n"
	"    .selfValue(true)\n"
	"    .inverted(true)\n"
	"    .sort(true)\n"
	"    .minFrameSize(0.4)\n"
	"    .transitionDuration(250)\n"
	"    .tooltip(tip)\n"
	"    .setColorMapper(function (d) { return colour(d); })\n"
	"    .setDetailsElement(document.getElementById(\"details\"));\n"
	"\n"
	"  /* legend: one swatch per kind that occurs */\n"
	"  var seen = {}, legend = document.getElementById(\"legend\");\n"
	"  (function walk(n) {\n"
	"    var stack = [n];\n"
	"    while (stack.length) {\n"
	"      var x = stack.pop();\n"
	"      seen[x.k] = true;\n"
	"      for (var i = 0; x.c && i < x.c.length; i++)\n"
	"        stack.push(x.c[i]);\n"
	"    }\n"
	"  })(data.tree);\n"
	"  for (var k = 2; k < KINDS.length; k++) {\n"
	"    if (!seen[k])\n"
	"      continue;\n"
	"    var sw = document.createElement(\"span\");\n"
	"    sw.className = \"swatch\";\n"
	"    sw.style.background = hsl(pal[k], 0.5);\n"
	"    legend.appendChild(sw);\n"
	"    legend.appendChild(document.createTextNode(KINDS[k]));\n"
	"  }\n"
	"\n"
	"  var term = document.getElementById(\"term\");\n"
	"  function search() {\n"
	"    if (term.value)\n"
	"      chart.search(term.value);\n"
	"    else\n"
	"      chart.clear();\n"
	"  }\n"
	"  term.addEventListener(\"keyup\", function (e) {\n"
	"    if (e.key === \"Enter\")\n"
	"      search();\n"
	"  });\n"
	"  document.getElementById(\"search\").addEventListener(\"click\", search);\n"
	"  document.getElementById(\"clear\").addEventListener(\"click\", function () {\n"
	"    term.value = \"\";\n"
	"    chart.clear();\n"
	"  });\n"
	"  document.getElementById(\"reset\").addEventListener(\"click\", function () {\n"
	"    chart.resetZoom();\n"
	"  });\n"
	"\n"
	"  d3.select(chartEl).datum(data.tree).call(chart);\n"
	"  /* for tests and for the curious: how long the first drawing took */\n"
	"  document.body.setAttribute(\"data-frames\", String(chartEl.querySelectorAll(\"g.frame\").length));\n"
	"  document.body.setAttribute(\"data-rendered-ms\", String(Math.round(performance.now())));\n"
	"  document.body.setAttribute(\"data-script-ms\", String(Math.round(performance.now() - t0)));\n"
	"})();\n";

int flamegraph__write_html(const struct flamegraph *fg, FILE *f, const struct flamegraph_page *p)
{
	char *scripts[ARRAY_SIZE(fg_libs)] = { 0 }, *licenses[ARRAY_SIZE(fg_libs)] = { 0 };
	int ret = -1;

	if (load_libs(p->libdir, scripts, licenses) < 0)
		goto out;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	/* nothing may be fetched: not a script, a style, a font or an image */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n", f);
	fputs("<title>", f);
	write_html_text(f, p->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1 id=\"title\">", page_style);
	write_html_text(f, p->title);
	fputs("</h1>\n<p class=\"info\">", f);
	write_html_text(f, p->info ? p->info : "");
	fprintf(f, "</p>\n%s", page_body);
	fputs("<details class=\"licenses\"><summary>Third-party software in this page</summary>\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(fg_libs); i++) {
		if (!licenses[i])
			continue;
		fprintf(f, "<p>%s%s:</p>\n<pre>", fg_libs[i].pkg,
			fg_libs[i].script ? "" : " (bundled in d3)");
		write_html_text(f, licenses[i]);
		fputs("</pre>\n", f);
	}
	fputs("</details>\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(fg_libs); i++)
		if (scripts[i] && write_script(f, fg_libs[i].pkg, scripts[i]) < 0)
			goto out;
	fputs("<script id=\"fg-options\" type=\"application/json\">{\"colorscheme\":", f);
	json__write_string(f, p->colorscheme ? p->colorscheme : "blue-green", true);
	fputs("}</script>\n<script id=\"fg-data\" type=\"application/json\">", f);
	if (flamegraph__write_page_json(fg, f) < 0)
		goto out;
	fprintf(f, "</script>\n<script>\n%s</script>\n</body>\n</html>\n", page_script);
	ret = ferror(f) ? -1 : 0;
out:
	for (size_t i = 0; i < ARRAY_SIZE(fg_libs); i++) {
		free(scripts[i]);
		free(licenses[i]);
	}
	return ret;
}
