/* Commands that connect servers and list what they offer: servers, tools,
 * resources, prompts; and plugins, which connects nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "display_width.h"
#include "json_parse.h"
#include "mcp_tool.h"
#include "util.h"

/* ---- listing several servers at once ---- */

static const char *str_of(const cJSON *o, const char *key) {
  return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* The client's list kinds (MCPHOST_OP_LIST), by L_* (cli.h). */
static const char *const kinds[L_KINDS] = {"tools", "resources",
                                           "resourceTemplates", "prompts"};

typedef struct list_group {
  size_t pending;
  int done;
} list_group;

typedef struct list_slot {
  list_group *g;
  listing *l;
  int kind;
  int64_t id; /* the operation's, for mcphost_cancel; 0 once it ended */
} list_slot;

/* An MCPHOST_OP_LIST ended: {KIND: [...]} (null when the server did not
 * declare the kind), or why not. */
static void on_listed(void *ud, const char *result, size_t len,
                      const mcphost_error *err) {
  list_slot *slot = ud;
  /* The text is ours (MCPHOST_REQUEST_TAKE_RESULT), parsed where it is. */
  char *own = (char *)result;
  if (err) {
    /* Withdrawn on a signal: nothing listed, and the signal says why. */
    if (err->code != MCPHOST_ECANCELED)
      slot->l->error[slot->kind] =
          xstrdup(err->message_long ? err->message_long : err->message);
    mcphost_free(own);
  } else {
    cJSON *doc = own ? json_parse_owned(own, len, NULL) : NULL;
    if (!doc)
      mcphost_free(own); /* the library gives JSON: never seen */
    cJSON *items =
        cJSON_DetachItemFromObjectCaseSensitive(doc, kinds[slot->kind]);
    if (cJSON_IsArray(items))
      slot->l->items[slot->kind] = items;
    else
      cJSON_Delete(items);
    cJSON_Delete(doc);
  }
  slot->id = 0;
  if (--slot->g->pending == 0)
    slot->g->done = 1;
}

mcphost_server_state cli_server_state(cli *c, size_t idx) {
  mcphost_server_state st = MCPHOST_SERVER_STATE_INIT;
  if (mcphost_server_get(c->api, idx, &st, NULL) != MCPHOST_OK)
    st = (mcphost_server_state)MCPHOST_SERVER_STATE_INIT;
  return st;
}

/* Lists the `want` kinds (bit set) through the client (MCPHOST_OP_LIST)
 * on every connected server among `idx`, concurrently; a kind a server
 * did not declare is not asked. */
listing *cli_list_many(cli *c, const size_t *idx, size_t n, unsigned want) {
  listing *ls = xcalloc(n ? n : 1, sizeof *ls);
  list_slot *slots = xcalloc(n * L_KINDS + 1, sizeof *slots);
  size_t nslots = 0;
  list_group g = {0};
  g.pending = 1; /* held until every request is out */
  for (size_t k = 0; k < n; k++) {
    if (!cli_server_state(c, idx[k]).connected)
      continue;
    for (int kind = 0; kind < L_KINDS; kind++) {
      if (!(want & (1u << kind)))
        continue;
      list_slot *slot = &slots[nslots++];
      *slot = (list_slot){.g = &g, .l = &ls[k], .kind = kind};
      g.pending++;
      mcphost_request rq = cli_request(
          MCPHOST_OP_LIST, mcphost_server_name(c->api, idx[k]), kinds[kind],
          NULL, MCPHOST_REQUEST_IF_DECLARED | MCPHOST_REQUEST_TAKE_RESULT);
      mcphost_callbacks cb = MCPHOST_CALLBACKS_INIT;
      cb.done = on_listed;
      cb.ud = slot;
      mcphost_error err = MCPHOST_ERROR_INIT;
      int64_t id = mcphost_start(c->api, &rq, &cb, &err);
      if (id < 0) { /* `done` does not run */
        slot->l->error[kind] = xstrdup(err.message);
        g.pending--;
      } else {
        slot->id = id;
      }
    }
  }
  if (--g.pending == 0)
    g.done = 1;
  if (cli_wait(c, &g.done)) {
    /* A signal: what is still listing is withdrawn (each ends
     * cancelled, at once), and the command sees the signal itself. */
    for (size_t k = 0; k < nslots; k++)
      if (slots[k].id > 0)
        mcphost_cancel(c->api, slots[k].id);
    mcphost_run_until(c->api, &g.done, 0);
  }
  free(slots);
  return ls;
}

void cli_listing_free(listing *ls, size_t n) {
  for (size_t k = 0; k < n; k++)
    for (int kind = 0; kind < L_KINDS; kind++) {
      cJSON_Delete(ls[k].items[kind]);
      free(ls[k].error[kind]);
    }
  free(ls);
}

/* Resolves the optional SERVER argument after the command (argv[0]) to
 * the list of config indexes.
 * Servers the configuration does not let start (pending, rejected,
 * denied, disabled) are left out of "all"; with `note_pending`, each
 * pending one gets a line saying how to approve it. */
int cli_targets(cli *c, int argc, char **argv, size_t **idx, size_t *n,
                bool note_pending) {
  if (argc > 2) {
    cli_error(c, NULL, "%s takes at most one SERVER argument", argv[0]);
    return EXIT_USAGE;
  }
  argc--; /* argv[0] is the command */
  argv++;
  if (argc == 1) {
    long i = cli_find_server(c, argv[0]);
    if (i < 0) {
      return cli_no_server(c, argv[0]);
    }
    int rc = cli_check_startable(c, (size_t)i);
    if (rc != EXIT_OK)
      return rc;
    *idx = xmalloc(sizeof **idx);
    (*idx)[0] = (size_t)i;
    *n = 1;
    return EXIT_OK;
  }
  size_t total = mcphost_server_count(c->api);
  *n = 0;
  *idx = xcalloc(total ? total : 1, sizeof **idx);
  for (size_t i = 0; i < total; i++) {
    mcphost_server_state ss = MCPHOST_SERVER_STATE_INIT;
    if (mcphost_server_get(c->api, i, &ss, NULL) != MCPHOST_OK)
      continue;
    if (ss.startable) {
      (*idx)[(*n)++] = i;
      continue;
    }
    if (!note_pending)
      continue;
    cJSON *st = cli_server_status(c, mcphost_server_name(c->api, i),
                                  MCPHOST_STATUS_BRIEF);
    if (st && strcmp(str_of(st, "state"), "pending") == 0)
      fprintf(stderr, "mcphost: server \"%s\" not started: %s\n",
              cli_esc(c, str_of(st, "name")), cli_esc(c, str_of(st, "reason")));
    cJSON_Delete(st);
  }
  return EXIT_OK;
}

/* How a description is shown under its name, indented: with -v every
 * line whole from its first with text; else that line alone
 * (cli_first_line), on a terminal cut at a word to the width with "…",
 * and " …" after it when lines with text were left out; escaped either
 * way. */
/* The three pieces and a newline on stdout, with no format to parse: a
 * listing prints two lines an item. */
static void put_line(const char *a, const char *b, const char *c) {
  fputs(a, stdout);
  fputs(b, stdout);
  fputs(c, stdout);
  putchar('\n');
}

static void print_description(cli *c, const char *desc) {
  size_t len = 0;
  bool more = false;
  const char *first = cli_first_line(desc, &len, &more);
  if (!first) {
    return;
  }
  static const char indent[] = "    ";
  if (cli_option_value(c, "verbose") > 0) {
    for (const char *line = first; line && *line;) {
      const char *nl = strchr(line, '\n');
      char *one = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
      printf("%s%s\n", indent, cli_esc(c, one));
      free(one);
      line = nl ? nl + 1 : NULL;
    }
    return;
  }
  if (c->out_cols < 0) {
    unsigned cols = 0, rows = 0;
    c->out_cols = term_size(STDOUT_FILENO, &cols, &rows) ? (int)cols : 0;
  }
  size_t cols = (size_t)c->out_cols;
  char *one = xstrndup(first, len);
  const char *shown = cli_esc(c, one);
  char *cut = NULL;
  if (cols > sizeof indent + 8) {
    cut = limits_cut_to_width(shown, cols - (sizeof indent - 1));
  }
  /* Lines left out are said, as a cut is: " …" (-v shows them). */
  put_line(indent, cut ? cut : shown, more && !cut ? " \xe2\x80\xa6" : "");
  free(cut);
  free(one);
}

/* An item's description as listed: cut to the limit (size_limits.h). A
 * new string, or NULL when it has none. */
static char *description_of(const cli *c, const cJSON *item) {
  const char *d = cJSON_GetStringValue(
      cJSON_GetObjectItemCaseSensitive(item, "description"));
  if (!d)
    return NULL;
  char *cut = limits_cut_description(d, c->lim.description_chars);
  return cut ? cut : xstrdup(d);
}

/* The configured name of server `idx`. */
static const char *server_name(const cli *c, size_t idx) {
  return mcphost_server_name(c->api, idx);
}

/* A listed item as JSON: `item`'s fields, with "name" the assigned name,
 * `orig_key` (tool, prompt) the server's name for it, and the cut
 * description. */
static cJSON *listed_json(const char *server, const cJSON *item,
                          const char *name, const char *orig_key,
                          const char *desc) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  cJSON_AddStringToObject(o, "server", server);
  cJSON_AddStringToObject(
      o, orig_key,
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "name")));
  const cJSON *f;
  cJSON_ArrayForEach(f, item) {
    if (strcmp(f->string, "name") == 0)
      continue;
    if (desc && strcmp(f->string, "description") == 0)
      cJSON_AddStringToObject(o, f->string, desc);
    else
      cJSON_AddItemToObject(o, f->string, cJSON_Duplicate(f, 1));
  }
  return o;
}

/* Connects `idx` and says which failed; returns the exit code to use. */
int cli_connect_report(cli *c, const size_t *idx, size_t n) {
  int rc = EXIT_OK;
  if (cli_connect(c, idx, n) == n)
    return EXIT_OK; /* every one connected: nothing to say */
  cJSON *all = cli_server_status(c, NULL, MCPHOST_STATUS_BRIEF);
  for (size_t k = 0; k < n; k++) {
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    if (cli_server_ready(st))
      continue;
    const char *error = str_of(st, "error");
    out_error("server \"%s\" failed: %s", server_name(c, idx[k]),
              error ? error : "not connected");
    if (rc == EXIT_OK)
      rc = cli_exit_for_server(st);
  }
  cJSON_Delete(all);
  return rc;
}

static int report_list_errors(const listing *ls, const size_t *idx, size_t n,
                              cli *c, int kind) {
  int rc = EXIT_OK;
  for (size_t k = 0; k < n; k++) {
    if (!ls[k].error[kind])
      continue;
    out_error("server \"%s\": %s", server_name(c, idx[k]), ls[k].error[kind]);
    rc = EXIT_PROTOCOL;
  }
  return rc;
}

/* ---- servers ---- */

static int count(const listing *l, int kind) {
  return l->items[kind] ? cJSON_GetArraySize(l->items[kind]) : -1;
}

/* Servers that are configured but may not start, with the reason. */
static void inactive_json(const cJSON *all, cJSON *arr) {
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "startable")))
      continue;
    const char *reason = str_of(st, "reason");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", str_of(st, "name"));
    cJSON_AddStringToObject(o, "type", str_of(st, "type"));
    cJSON_AddStringToObject(o, "source", str_of(st, "source"));
    cJSON_AddStringToObject(o, "scope", str_of(st, "scope"));
    cJSON_AddStringToObject(o, "state", str_of(st, "state"));
    cJSON_AddStringToObject(o, "error", reason ? reason : "");
    cJSON_AddItemToArray(arr, o);
  }
}

static void inactive_text(cli *c, const cJSON *all, size_t wname,
                          size_t wtype) {
  const cJSON *st;
  cJSON_ArrayForEach(st, all) {
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "startable")))
      continue;
    const char *reason = str_of(st, "reason");
    out_pad(cli_esc(c, str_of(st, "name")), wname);
    fputs("  ", stdout);
    out_pad(cli_esc(c, str_of(st, "type")), wtype);
    printf("  %s: %s\n", str_of(st, "state"), cli_esc(c, reason ? reason : ""));
  }
}

/* What the feature plugins say of a server (its status's "notes"), one
 * indented line each. */
static void print_notes(cli *c, const cJSON *st) {
  const cJSON *n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(st, "notes")) {
    printf("    %s\n", cli_esc(c, str_of(n, "note")));
  }
}

/* The lines of a failure's reason after its first (`nl` at the end of
 * it, or NULL), under the table's row: indented, each escaped. */
static void print_more_lines(cli *c, const char *nl) {
  while (nl && nl[1]) {
    const char *line = nl + 1;
    nl = strchr(line, '\n');
    char *one = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));
    if (*one) {
      printf("    %s\n", cli_esc(c, one));
    }
    free(one);
  }
}

int cmd_reconnect(cli *c, int argc, char **argv) {
  size_t *idx = NULL, n = 0;
  int rc = cli_targets(c, argc, argv, &idx, &n, false);
  if (rc != EXIT_OK)
    return rc;
  cli_connect_flags(c, idx, n, MCPHOST_CONNECT_AGAIN);
  cJSON *all = cli_server_status(c, NULL, MCPHOST_STATUS_BRIEF);
  for (size_t k = 0; k < n; k++) {
    const char *name = server_name(c, idx[k]);
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    if (cli_server_ready(st)) {
      printf("%s: connected\n", cli_esc(c, name));
      continue;
    }
    const char *error = str_of(st, "error");
    cli_error(c, name, "server \"%s\" cannot reconnect: %s", cli_esc(c, name),
              cli_esc(c, error ? error : str_of(st, "connection")));
    if (rc == EXIT_OK)
      rc = cli_exit_for_server(st);
  }
  cJSON_Delete(all);
  free(idx);
  return rc;
}

/* `servers --json`: each server of `idx` as its status says it, with
 * its counts; then, for every server (`argc` 1), those that may not
 * start. */
static void servers_json(cli *c, const cJSON *all, const size_t *idx, size_t n,
                         const listing *ls, bool every) {
  cJSON *arr = cJSON_CreateArray();
  for (size_t k = 0; k < n; k++) {
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", str_of(st, "name"));
    cJSON_AddStringToObject(o, "type", str_of(st, "transport"));
    cJSON_AddStringToObject(o, "source", str_of(st, "source"));
    cJSON_AddStringToObject(o, "scope", str_of(st, "scope"));
    const char *up = str_of(st, "upstream");
    if (up)
      cJSON_AddStringToObject(o, "url", up);
    bool ok = cli_server_ready(st);
    cJSON_AddStringToObject(o, "state", str_of(st, "connection"));
    if (!ok) {
      const char *error = str_of(st, "error");
      cJSON_AddStringToObject(o, "error", error ? error : "");
    } else {
      static const char *const keys[] = {"protocolVersion", "era", "serverInfo",
                                         "capabilities", "instructions"};
      for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(st, keys[i]);
        if (v)
          cJSON_AddItemToObject(o, keys[i], cJSON_Duplicate(v, 1));
      }
      static const char *names[] = {"tools", "resources", NULL, "prompts"};
      for (int kind = 0; kind < L_KINDS; kind++)
        if (names[kind])
          cJSON_AddNumberToObject(
              o, names[kind],
              count(&ls[k], kind) < 0 ? 0 : count(&ls[k], kind));
    }
    cJSON *notes = cJSON_GetObjectItemCaseSensitive(st, "notes");
    cJSON_AddItemToObject(
        o, "notes", notes ? cJSON_Duplicate(notes, 1) : cJSON_CreateArray());
    cJSON_AddItemToArray(arr, o);
  }
  if (every)
    inactive_json(all, arr);
  out_json(arr);
  c->result_printed = true;
  cJSON_Delete(arr);
}

/* The table of `servers`: every column as wide as its widest entry. */
static void servers_text(cli *c, const cJSON *all, const size_t *idx, size_t n,
                         const listing *ls, bool every, bool verbose) {
  /* Every column as wide as its widest entry, counted in characters
   * of what is shown (escapes included). */
  size_t wname = 4, wtype = 4, wwho = 6;
  char **who = xcalloc(n ? n : 1, sizeof *who);
  const cJSON *sc;
  cJSON_ArrayForEach(sc, all) {
    size_t a = out_width(cli_esc(c, str_of(sc, "name"))),
           b = out_width(cli_esc(c, str_of(sc, "type")));
    wname = a > wname ? a : wname;
    wtype = b > wtype ? b : wtype;
  }
  for (size_t k = 0; k < n; k++) {
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    if (!cli_server_ready(st))
      continue;
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(st, "serverInfo");
    const char *nm = str_of(info, "name"), *ver = str_of(info, "version");
    char *raw =
        xasprintf("%s%s%s", nm ? nm : "?", ver ? " " : "", ver ? ver : "");
    who[k] = xstrdup(cli_esc(c, raw));
    free(raw);
    size_t w = out_width(who[k]);
    wwho = w > wwho ? w : wwho;
  }
  /* On a terminal the table fits its width: the SERVER column and an
   * error give way (cut with "…"); the state is coloured. */
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  bool colour = cli_colour(STDOUT_FILENO);
  size_t fixed = wname + 2 + wtype + 2 + 10 + 2 + 2 + 5 + 2 + 9 + 2 + 7;
  /* PROTOCOL (17 and its gap) goes first when even a SERVER cut to 6
   * would not leave room for it (servers -v and --json still say it). */
  bool show_proto = !cols || fixed + 19 + 6 <= cols;
  if (show_proto)
    fixed += 19;
  if (cols && fixed + wwho > cols && cols >= fixed + 6) {
    wwho = cols - fixed;
    for (size_t k = 0; k < n; k++) {
      char *cut = who[k] ? limits_cut_to_width(who[k], wwho) : NULL;
      if (cut) {
        free(who[k]);
        who[k] = cut;
      }
    }
  }
  out_pad("NAME", wname);
  fputs("  ", stdout);
  out_pad("TYPE", wtype);
  fputs("  ", stdout);
  out_pad("STATE", 10);
  fputs("  ", stdout);
  out_pad("SERVER", wwho);
  fputs("  ", stdout);
  if (show_proto) {
    out_pad("PROTOCOL", 17);
    fputs("  ", stdout);
  }
  printf("%5s  %9s  %7s\n", "TOOLS", "RESOURCES", "PROMPTS");
  for (size_t k = 0; k < n; k++) {
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    out_pad(cli_esc(c, str_of(st, "name")), wname);
    fputs("  ", stdout);
    out_pad(cli_esc(c, str_of(st, "transport")), wtype);
    const char *up = str_of(st, "upstream");
    if (!cli_server_ready(st)) {
      /* The first line in the table; the others (a stdio server's
       * "stderr (last lines):") below it, indented, each escaped. */
      const char *error = str_of(st, "error");
      const char *state = str_of(st, "connection");
      if (!error)
        error = "not connected";
      const char *nl = strchr(error, '\n');
      char *first = xstrndup(error, nl ? (size_t)(nl - error) : strlen(error));
      const char *why = cli_esc(c, first); /* may be `first` */
      size_t left = wname + 2 + wtype + 2 + strlen(state) + 2;
      char *cut =
          cols > left + 8 ? limits_cut_to_width(why, cols - left) : NULL;
      strbuf painted;
      sb_init(&painted);
      cli_paint(&painted, colour, CLI_STYLE_BAD, state, strlen(state));
      printf("  %s: %s\n", sb_str(&painted), cut ? cut : why);
      sb_free(&painted);
      free(cut);
      free(first);
      print_more_lines(c, nl);
      if (up)
        printf("    upstream: %s\n", cli_esc(c, up));
      if (verbose)
        print_notes(c, st);
      continue;
    }
    strbuf painted;
    sb_init(&painted);
    cli_paint(&painted, colour, CLI_STYLE_GOOD, "connected", 9);
    printf("  %s   ", sb_str(&painted)); /* padded to 10 */
    sb_free(&painted);
    out_pad(who[k], wwho);
    fputs("  ", stdout);
    if (show_proto) {
      /* "2026-07-28 modern", "2025-11-25 legacy": the era and version */
      const char *version = str_of(st, "protocolVersion");
      char proto[64];
      snprintf(proto, sizeof proto, "%.20s %s", version ? version : "?",
               str_of(st, "era"));
      out_pad(cli_esc(c, proto), 17);
      fputs("  ", stdout);
    }
    printf("%5d  %9d  %7d\n",
           count(&ls[k], L_TOOLS) < 0 ? 0 : count(&ls[k], L_TOOLS),
           count(&ls[k], L_RESOURCES) < 0 ? 0 : count(&ls[k], L_RESOURCES),
           count(&ls[k], L_PROMPTS) < 0 ? 0 : count(&ls[k], L_PROMPTS));
    if (up)
      printf("    upstream: %s\n", cli_esc(c, up));
    if (verbose) {
      cli_print_server_details(c, st);
      print_notes(c, st);
    }
  }
  for (size_t k = 0; k < n; k++)
    free(who[k]);
  free(who);
  if (every)
    inactive_text(c, all, wname, wtype);
}

int cmd_servers(cli *c, int argc, char **argv) {
  /* -v after the command too: `mcphost servers -v` adds what plugins say
   * about each server (e.g. why channels skipped it). */
  bool verbose = cli_option_value(c, "verbose") > 0;
  int kept = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
      verbose = true;
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  size_t *idx = NULL, n = 0;
  int rc = cli_targets(c, argc, argv, &idx, &n, false);
  if (rc != EXIT_OK)
    return rc;
  if (argc == 1) {
    /* The table lists every server: each one's warnings, those it
     * skips too (a connected one's come as it connects). */
    mcphost_config_report(c->api, NULL, 0, NULL);
  }
  /* Servers never used are connected now; a connection the shell or a
   * session holds is shown as it is (reconnecting after a loss, say),
   * not waited for. */
  cli_connect_flags(c, idx, n, MCPHOST_CONNECT_UNUSED);
  listing *ls = cli_list_many(
      c, idx, n, 1u << L_TOOLS | 1u << L_RESOURCES | 1u << L_PROMPTS);
  cJSON *all = cli_server_status(c, NULL,
                                 /* a table without -v shows no capabilities */
                                 c->json || verbose ? MCPHOST_STATUS_NOTES
                                                    : MCPHOST_STATUS_BRIEF);
  if (c->json)
    servers_json(c, all, idx, n, ls, argc == 1);
  else
    servers_text(c, all, idx, n, ls, argc == 1, verbose);
  rc = EXIT_OK;
  for (size_t k = 0; k < n && rc == EXIT_OK; k++) {
    const cJSON *st = cJSON_GetArrayItem(all, (int)idx[k]);
    if (!cli_server_ready(st))
      rc = cli_exit_for_server(st);
  }
  cJSON_Delete(all);
  cli_listing_free(ls, n);
  free(idx);
  return rc;
}

/* ---- tools, resources, prompts ---- */

static int list_command(cli *c, int argc, char **argv, unsigned want,
                        void (*print)(cli *, size_t, const listing *,
                                      cJSON *json_out)) {
  size_t *idx = NULL, n = 0;
  int rc = cli_targets(c, argc, argv, &idx, &n, true);
  if (rc != EXIT_OK)
    return rc;
  rc = cli_connect_report(c, idx, n);
  listing *ls = cli_list_many(c, idx, n, want);
  for (int kind = 0; kind < L_KINDS; kind++)
    if (want & (1u << kind)) {
      int e = report_list_errors(ls, idx, n, c, kind);
      if (rc == EXIT_OK)
        rc = e;
    }
  cJSON *json_out = c->json ? cJSON_CreateArray() : NULL;
  for (size_t k = 0; k < n; k++) {
    if (cli_server_state(c, idx[k]).connected)
      print(c, idx[k], &ls[k], json_out);
  }
  if (json_out) {
    out_json(json_out);
    c->result_printed = true;
    cJSON_Delete(json_out);
  }
  cli_listing_free(ls, n);
  free(idx);
  return rc;
}

static void print_tools(cli *c, size_t idx, const listing *l, cJSON *out) {
  size_t n, i = 0, skip;
  const char *server = server_name(c, idx);
  char **names =
      cli_names_assign(server, l->items[L_TOOLS], c->lim.name_chars, &n, &skip);
  cli_names_record(c, server, "tools", names, l->items[L_TOOLS], n);
  const char *type = cli_server_state(c, idx).type;
  const cJSON *t;
  cJSON_ArrayForEach(t, l->items[L_TOOLS]) {
    const char *q = names[i++];
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t, "name"));
    if (!name || (!c->all_tools && !mcphost_name_model_visible(type, name)))
      continue;
    char *desc = description_of(c, t);
    if (out) {
      cJSON_AddItemToArray(out, listed_json(server, t, q, "tool", desc));
    } else {
      /* A name that is not the server's own says what the server calls it. */
      /* -v: the signature (mcphost_tool_signature) in place of the name. */
      char *sig =
          cli_option_value(c, "verbose") > 0 ? cli_tool_signature(q, t) : NULL;
      const char *shown = sig ? cli_esc(c, sig) : q;
      /* A tool that runs only as a task (mcp/tasks.h) says so. */
      const char *task =
          strcmp(mcp_tool_task_support(t), "required") == 0 ? "  (task)" : "";
      if (strcmp(q + skip, name) != 0)
        printf("%s%s  (original name: \"%s\")\n", shown, task,
               cli_esc(c, name));
      else
        put_line(shown, task, "");
      mcphost_free(sig);
      print_description(c, desc);
    }
    free(desc);
  }
  mcphost_free(names);
}

int cmd_tools(cli *c, int argc, char **argv) {
  return list_command(c, argc, argv, 1u << L_TOOLS, print_tools);
}

static void add_with_server(cJSON *out, const char *server, const cJSON *item,
                            const char *kind) {
  cJSON *o = cJSON_Duplicate(item, 1);
  cJSON_AddStringToObject(o, "server", server);
  cJSON_AddStringToObject(o, "kind", kind);
  cJSON_AddItemToArray(out, o);
}

/* One line of a listing (escaped already), on a terminal cut to its
 * width with "…". */
static void print_fitted(const char *line) {
  unsigned cols = cli_term_cols(STDOUT_FILENO);
  char *cut = cols ? limits_cut_to_width(line, cols) : NULL;
  printf("%s\n", cut ? cut : line);
  free(cut);
}

static void print_resources(cli *c, size_t idx, const listing *l, cJSON *out) {
  const char *server = server_name(c, idx);
  const cJSON *r;
  cJSON_ArrayForEach(r, l->items[L_RESOURCES]) {
    if (out) {
      add_with_server(out, server, r, "resource");
      continue;
    }
    const char *uri =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "uri"));
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name"));
    const char *mime =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "mimeType"));
    char *line = xasprintf("%s  %s%s%s%s%s", cli_esc(c, server),
                           cli_esc(c, uri ? uri : "?"), name ? "  " : "",
                           name ? cli_esc(c, name) : "", mime ? "  " : "",
                           mime ? cli_esc(c, mime) : "");
    print_fitted(line);
    free(line);
  }
  cJSON_ArrayForEach(r, l->items[L_TEMPLATES]) {
    if (out) {
      add_with_server(out, server, r, "template");
      continue;
    }
    const char *t = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(r, "uriTemplate"));
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "name"));
    char *line = xasprintf("%s  %s  (template)%s%s", cli_esc(c, server),
                           cli_esc(c, t ? t : "?"), name ? "  " : "",
                           name ? cli_esc(c, name) : "");
    print_fitted(line);
    free(line);
  }
}

int cmd_resources(cli *c, int argc, char **argv) {
  return list_command(c, argc, argv, 1u << L_RESOURCES | 1u << L_TEMPLATES,
                      print_resources);
}

static void print_prompts(cli *c, size_t idx, const listing *l, cJSON *out) {
  size_t n, i = 0, skip;
  const char *server = server_name(c, idx);
  char **names = cli_names_assign(server, l->items[L_PROMPTS],
                                  c->lim.name_chars, &n, &skip);
  cli_names_record(c, server, "prompts", names, l->items[L_PROMPTS], n);
  const cJSON *p;
  cJSON_ArrayForEach(p, l->items[L_PROMPTS]) {
    const char *q = names[i++];
    const char *name =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "name"));
    if (!name)
      continue;
    char *desc = description_of(c, p);
    if (out) {
      cJSON_AddItemToArray(out, listed_json(server, p, q, "prompt", desc));
      free(desc);
      continue;
    }
    strbuf args;
    sb_init(&args);
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(p, "arguments")) {
      const char *an =
          cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "name"));
      bool req = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "required"));
      if (an)
        sb_printf(&args, req ? " %s" : " [%s]", cli_esc(c, an));
    }
    if (strcmp(q + skip, name) != 0)
      printf("%s%s  (original name: \"%s\")\n", q, sb_str(&args),
             cli_esc(c, name));
    else
      printf("%s%s\n", q, sb_str(&args));
    print_description(c, desc);
    sb_free(&args);
    free(desc);
  }
  mcphost_free(names);
}

int cmd_prompts(cli *c, int argc, char **argv) {
  return list_command(c, argc, argv, 1u << L_PROMPTS, print_prompts);
}

/* ---- plugins ---- */

/* Plugin i's transport types as one line: "a,b (shadowed by FILE)". */
static char *types_text(cli *c, size_t i, size_t n) {
  strbuf b;
  sb_init(&b);
  sb_add(&b, "", 0);
  for (size_t k = 0; k < n; k++) {
    const char *type, *by;
    if (mcphost_plugin_type(c->api, i, k, &type, &by, NULL) == MCPHOST_OK) {
      sb_printf(&b, "%s%s", b.len ? "," : "", type);
      if (by) {
        sb_printf(&b, " (shadowed by %s)", by);
      }
    }
  }
  return sb_take(&b);
}

void cli_warn_plugin_dirs(cli *c) {
  const char *dir, *origin;
  char why[300];
  for (size_t i = 0; mcphost_plugin_dir(c->api, i, &dir, &origin, why,
                                        sizeof why, NULL) == MCPHOST_OK;
       i++) {
    if (*why && strcmp(origin, "plugin_dirs") == 0) {
      fprintf(stderr, "mcphost: warning: --plugin-dir %s: %s\n", dir, why);
    }
  }
}

/* mcphost plugins --json: the plugins' records. */
static int print_plugins_json(cli *c) {
  char *json = NULL;
  mcphost_error err = MCPHOST_ERROR_INIT;
  int rc = mcphost_plugins_json(c->api, 0, &json, NULL, &err);
  cJSON *all = rc == MCPHOST_OK ? cJSON_Parse(json) : NULL;
  mcphost_free(json);
  if (!all) {
    cli_error(c, NULL, "plugins: %s",
              rc != MCPHOST_OK ? err.message : "out of memory");
    return rc != MCPHOST_OK ? cli_exit_for_api(rc) : EXIT_SERVER;
  }
  out_json(cJSON_GetObjectItemCaseSensitive(all, "plugins"));
  cJSON_Delete(all);
  return EXIT_OK;
}

int cmd_plugins(cli *c, int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    fprintf(stderr, "mcphost: plugins takes no arguments\n");
    return EXIT_USAGE;
  }
  if (c->json) {
    return print_plugins_json(c);
  }
  /* The search path, then what is missing of it. */
  strbuf dirs;
  sb_init(&dirs);
  const char *dir, *origin;
  char why[300];
  for (size_t i = 0; mcphost_plugin_dir(c->api, i, &dir, &origin, NULL, 0,
                                        NULL) == MCPHOST_OK;
       i++) {
    sb_printf(&dirs, "%s%s", dirs.len ? ", " : "", dir);
  }
  printf("search path: %s\n",
         dirs.len ? cli_esc(c, sb_str(&dirs)) : "(no plugin directories)");
  sb_free(&dirs);
  for (size_t i = 0; mcphost_plugin_dir(c->api, i, &dir, &origin, why,
                                        sizeof why, NULL) == MCPHOST_OK;
       i++) {
    if (*why) {
      printf("missing  %s: %s\n", cli_esc(c, dir), why);
    }
  }
  mcphost_plugin_info p = MCPHOST_PLUGIN_INFO_INIT;
  for (size_t i = 0; mcphost_plugin_get(c->api, i, &p, NULL) == MCPHOST_OK;
       i++) {
    /* A plugin's id, version, description and messages are its own
     * text, and a file name can hold anything: escaped like a
     * server's. */
    if (p.builtin) {
      /* A type the library serves itself, which a configuration may
       * name too. This executable embeds no server of its own. */
      for (size_t k = 0; k < p.ntypes; k++) {
        const char *type, *by;
        if (mcphost_plugin_type(c->api, i, k, &type, &by, NULL) == MCPHOST_OK) {
          printf("built-in %s: %s (none in mcphost: such an entry is "
                 "skipped)\n",
                 cli_esc(c, type),
                 cli_esc(c, p.description ? p.description : ""));
        }
      }
      continue;
    }
    if (!p.loaded) {
      printf("refused  %s\n         %s\n", cli_esc(c, p.file),
             cli_esc(c, p.error));
      continue;
    }
    printf("loaded   %s %s (ABI %u.%u)  %s\n", cli_esc(c, p.id),
           p.version ? cli_esc(c, p.version) : "?", p.abi_major, p.abi_minor,
           cli_esc(c, p.file));
    char *types = types_text(c, i, p.ntypes);
    if (*types) {
      printf("         transports: %s\n", cli_esc(c, types));
    }
    free(types);
    if (p.server_source) {
      printf("         server source: %s\n", *p.server_source
                                                 ? cli_esc(c, p.server_source)
                                                 : "(no description)");
    }
    if (p.permission_decider) {
      printf("         answers permission questions\n");
    }
    if (p.error) {
      printf("         warning: %s\n", cli_esc(c, p.error));
    }
  }
  return EXIT_OK;
}
