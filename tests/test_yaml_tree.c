/* test_yaml_tree.c - the private YAML tree (driver/yaml_tree.h) built from
 * libyaml's events: 1-based lines, scalar styles, explicit tags, aliases kept
 * as unexpanded leaves, empty values, duplicate keys, the nesting bound, one
 * document per stream. Expected lines are counted by hand in the texts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "testutil.h"
#include "yaml_tree.h"
#include "yaml_value.h"

static int parse(const char *text, mbdae_ynode **root, char *err, size_t errlen) {
  return mbdae_yaml_tree_parse("t.yaml", "a scenario", text, strlen(text), root, err, errlen);
}

static void test_nodes_lines_styles(void) {
  static const char text[] =
      "a: 1\n"                  /* line 1 */
      "b: 'q'\n"                /* 2 */
      "c: \"d\\x41\"\n"         /* 3 */
      "d: |\n"                  /* 4 */
      "  x\n"                   /* 5 */
      "e:\n"                    /* 6: empty value */
      "f: [1, [2, 3], {g: h}]\n" /* 7 */
      "i: !!str 5\n"            /* 8 */
      "j: ~\n"                  /* 9 */
      "k:\n"                    /* 10 */
      "  - x\n";                /* 11 */
  mbdae_ynode *root = NULL;
  char err[512];
  int rc = parse(text, &root, err, sizeof err);
  if (rc) printf("\n  %s\n", err);
  CU_ASSERT_EQUAL_FATAL(rc, MBDAE_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(root);
  CU_ASSERT_EQUAL(root->kind, MBDAE_YNODE_MAPPING);
  CU_ASSERT_EQUAL_FATAL(root->n, 9);
  static const char *const keys[] = {"a", "b", "c", "d", "e", "f", "i", "j", "k"};
  static const int key_lines[] = {1, 2, 3, 4, 6, 7, 8, 9, 10};
  for (int i = 0; i < 9; ++i) {
    CU_ASSERT_STRING_EQUAL(root->pairs[i].key->text, keys[i]);
    CU_ASSERT_EQUAL(root->pairs[i].key->line, key_lines[i]);
    CU_ASSERT_PTR_EQUAL(mbdae_yaml_map_get(root, keys[i]), root->pairs[i].value);
  }
  CU_ASSERT_PTR_NULL(mbdae_yaml_map_get(root, "zz"));
  const mbdae_ynode *v = mbdae_yaml_map_get(root, "a");
  CU_ASSERT(v->kind == MBDAE_YNODE_SCALAR && v->style == MBDAE_YSTYLE_PLAIN && v->len == 1);
  v = mbdae_yaml_map_get(root, "b");
  CU_ASSERT(v->style == MBDAE_YSTYLE_QUOTED && !strcmp(v->text, "q") && v->line == 2);
  v = mbdae_yaml_map_get(root, "c");
  CU_ASSERT(v->style == MBDAE_YSTYLE_QUOTED && !strcmp(v->text, "dA"));
  v = mbdae_yaml_map_get(root, "d");
  CU_ASSERT(v->style == MBDAE_YSTYLE_BLOCK && !strcmp(v->text, "x\n"));
  v = mbdae_yaml_map_get(root, "e");
  CU_ASSERT(mbdae_yaml_is_null(v) && v->line == 0);
  CU_ASSERT_EQUAL(mbdae_yaml_line(v, 42), 42); /* no position: the caller's line */
  CU_ASSERT_STRING_EQUAL(mbdae_yaml_what(v), "an empty value");
  v = mbdae_yaml_map_get(root, "f");
  CU_ASSERT_EQUAL_FATAL(v->kind, MBDAE_YNODE_SEQUENCE);
  CU_ASSERT_EQUAL_FATAL(v->n, 3);
  CU_ASSERT_EQUAL(v->items[1]->kind, MBDAE_YNODE_SEQUENCE);
  CU_ASSERT_EQUAL(v->items[1]->n, 2);
  CU_ASSERT_EQUAL(v->items[2]->kind, MBDAE_YNODE_MAPPING);
  CU_ASSERT_EQUAL(mbdae_yaml_line(v, 0), 7);
  v = mbdae_yaml_map_get(root, "i");
  CU_ASSERT(v->tagged && !strcmp(v->text, "5"));
  v = mbdae_yaml_map_get(root, "j"); /* `~` is text: mbdae resolves no YAML types */
  CU_ASSERT(!mbdae_yaml_is_null(v) && !strcmp(v->text, "~"));
  v = mbdae_yaml_map_get(root, "k");
  CU_ASSERT_EQUAL(mbdae_yaml_line(v, 0), 11); /* a collection: its first scalar */
  mbdae_yaml_tree_free(root);
}

static void test_empty_and_documents(void) {
  mbdae_ynode *root = (mbdae_ynode *)&root; /* must be reset */
  char err[512];
  CU_ASSERT_EQUAL(parse("", &root, err, sizeof err), MBDAE_OK);
  CU_ASSERT_PTR_NULL(root);
  CU_ASSERT_EQUAL(parse("# only a comment\n\n", &root, err, sizeof err), MBDAE_OK);
  CU_ASSERT_PTR_NULL(root);
  CU_ASSERT_EQUAL(parse("---\n", &root, err, sizeof err), MBDAE_OK); /* empty document */
  CU_ASSERT(root && mbdae_yaml_is_null(root));
  mbdae_yaml_tree_free(root);
  CU_ASSERT_EQUAL(parse("a: 1\n...\n", &root, err, sizeof err), MBDAE_OK);
  mbdae_yaml_tree_free(root);
  /* a second document: refused at the line of its first scalar */
  CU_ASSERT_EQUAL(parse("a: 1\n---\n\nb: 2\n", &root, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NULL(root);
  CU_ASSERT_STRING_EQUAL(err, "t.yaml:4: a scenario is one YAML document (found a second one)");
  /* ... and a syntax error inside it is reported as one */
  CU_ASSERT_EQUAL(parse("a: 1\n---\nb: [1\n", &root, err, sizeof err), MBDAE_ERR_SCENARIO);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "YAML syntax error"));
}

static void test_aliases_stay_leaves(void) {
  /* a billion-laughs bomb: ten levels, each doubling the previous */
  char text[1024];
  size_t used = (size_t)snprintf(text, sizeof text, "a: &a [lol, lol]\n");
  for (char c = 'b'; c <= 'j'; ++c)
    used += (size_t)snprintf(text + used, sizeof text - used, "%c: &%c [*%c, *%c]\n", c, c,
                             c - 1, c - 1);
  mbdae_ynode *root = NULL;
  char err[512];
  CU_ASSERT_EQUAL_FATAL(parse(text, &root, err, sizeof err), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(root->n, 10);
  const mbdae_ynode *j = mbdae_yaml_map_get(root, "j");
  CU_ASSERT_EQUAL_FATAL(j->n, 2);
  CU_ASSERT_EQUAL(j->items[0]->kind, MBDAE_YNODE_ALIAS); /* not 2^9 copies */
  CU_ASSERT_EQUAL(j->items[0]->n, 0);
  CU_ASSERT_EQUAL(j->items[1]->line, 10);
  char why[256];
  CU_ASSERT_EQUAL(mbdae_yaml_check_plain(j->items[0], why, sizeof why), MBDAE_ERR_SCENARIO);
  CU_ASSERT_STRING_EQUAL(why, "YAML aliases (*name) are not supported");
  CU_ASSERT_STRING_EQUAL(mbdae_yaml_what(j->items[0]), "an alias");
  mbdae_yaml_tree_free(root);
}

static void test_duplicate_keys(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
    {"a: 1\nb:\n  c: 1\n  c: 2\n", "t.yaml:4: duplicate key 'c' (a mapping names each key once)"},
    {"a: 1\n\"a\": 2\n", "t.yaml:2: duplicate key 'a' (a mapping names each key once)"},
    {"x: {p: 1, q: 2, p: 3}\n", "t.yaml:1: duplicate key 'p' (a mapping names each key once)"},
    {"? [a, b]\n: 1\n? [a, b]\n: 2\n", "t.yaml:3: duplicate key (a mapping names each key once)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    mbdae_ynode *root = NULL;
    char err[512];
    CU_ASSERT_EQUAL(parse(cases[i].text, &root, err, sizeof err), MBDAE_ERR_SCENARIO);
    CU_ASSERT_PTR_NULL(root);
    if (strcmp(err, cases[i].want)) printf("\n  got %s\n want %s\n", err, cases[i].want);
    CU_ASSERT_STRING_EQUAL(err, cases[i].want);
  }
  /* same text in different mappings, and 1 vs 1.0, are different keys */
  mbdae_ynode *root = NULL;
  char err[512];
  CU_ASSERT_EQUAL(parse("a: {k: 1}\nb: {k: 1}\n1: x\n1.0: y\n", &root, err, sizeof err),
                  MBDAE_OK);
  mbdae_yaml_tree_free(root);
}

static void test_nesting_bound(void) {
  /* MBDAE_YAML_MAX_DEPTH collections nest fine, one more is refused */
  enum { D = MBDAE_YAML_MAX_DEPTH };
  char text[4 * D + 16];
  for (int extra = 0; extra <= 1; ++extra) {
    int d = D + extra;
    size_t k = 0;
    text[k++] = '\n'; /* the brackets start on line 2 */
    for (int i = 0; i < d; ++i) text[k++] = '[';
    for (int i = 0; i < d; ++i) text[k++] = ']';
    text[k] = '\0';
    mbdae_ynode *root = NULL;
    char err[512];
    int rc = parse(text, &root, err, sizeof err);
    if (!extra) {
      CU_ASSERT_EQUAL(rc, MBDAE_OK);
    } else {
      CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
      char want[128];
      snprintf(want, sizeof want, "t.yaml:2: YAML nesting deeper than %d levels", D);
      CU_ASSERT_STRING_EQUAL(err, want);
    }
    mbdae_yaml_tree_free(root);
  }
}

static void test_syntax_errors_name_the_line(void) {
  static const struct {
    const char *text;
    int line;
    const char *problem;
  } cases[] = {
    {"? ? :I?z :\t :\t? :", 1, "mapping values are not allowed in this context"},
    {"? a :\t? :", 1, "mapping keys are not allowed in this context"},
    {"a: 1\nb:\n\tc: 2\n", 3, "found character that cannot start any token"},
    {"a: 1\nb: \"open\n\n", 4, "found unexpected end of stream (while scanning a quoted "
                               "scalar, line 2)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    mbdae_ynode *root = NULL;
    char err[512], want[512];
    CU_ASSERT_EQUAL(parse(cases[i].text, &root, err, sizeof err), MBDAE_ERR_SCENARIO);
    CU_ASSERT_PTR_NULL(root);
    snprintf(want, sizeof want, "t.yaml:%d: YAML syntax error: %s", cases[i].line,
             cases[i].problem);
    if (strcmp(err, want)) printf("\n  got %s\n want %s\n", err, want);
    CU_ASSERT_STRING_EQUAL(err, want);
  }
}

int main(void) {
  static const mbdae_test tests[] = {
    {"nodes, 1-based lines, styles, tags, empty values", test_nodes_lines_styles},
    {"empty streams and one document", test_empty_and_documents},
    {"aliases stay unexpanded leaves", test_aliases_stay_leaves},
    {"duplicate keys are refused by line", test_duplicate_keys},
    {"nesting is bounded", test_nesting_bound},
    {"syntax errors name the line", test_syntax_errors_name_the_line},
    {NULL, NULL}};
  return mbdae_test_main("yaml_tree", tests);
}
