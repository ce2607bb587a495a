/* test_state_fields.c - a model kind's checkpoint from one field list
 * (mbdae/model.h: state_fields, mbdae_model_state_size/save/load): the
 * counting cursor measures exactly the bytes the list saves and loads, a
 * round trip restores every field, a buffer of another size is refused
 * before anything is overwritten, the three-function form still works, the
 * registry refuses a table with both, and every shipped kind can be
 * checkpointed. */
#include <stdio.h>
#include <string.h>

#include "mbdae/model.h"
#include "mbdae/status.h"
#include "testutil.h"
#include "toy_kind.h"

/* A stand-in instance (the pointer a kind gets is opaque): a fixed part and
 * an array whose length is set at create time, as the string net's and the
 * capture's are. */
typedef struct inst {
  int mode;
  long count;
  double record[3];
  int n;
  double *per_item;
} inst;

#define MODEL(x) ((mbdae_model *)(x))

static void fields(mbdae_model *model, mbdae_state_cursor *c) {
  inst *m = (inst *)model;
  mbdae_state_io(c, &m->mode, sizeof m->mode);
  mbdae_state_io(c, &m->count, sizeof m->count);
  mbdae_state_io(c, m->record, sizeof m->record);
  mbdae_state_io(c, m->per_item, (size_t)m->n * sizeof *m->per_item);
}

static mbdae_model_kind fields_kind(void) {
  mbdae_model_kind k = toy_kind;
  k.name = "fields_test";
  k.state_fields = fields;
  return k;
}

static void fill(inst *m, double *items, int n, double base) {
  m->mode = (int)base;
  m->count = 10 * (long)base;
  for (int i = 0; i < 3; ++i) m->record[i] = base + 0.25 * i;
  m->n = n;
  m->per_item = items;
  for (int i = 0; i < n; ++i) items[i] = base * 100 + i;
}

static void test_counting_cursor(void) {
  mbdae_state_cursor c = {.w = NULL, .r = NULL};
  double x = 1.0;
  mbdae_state_io(&c, &x, sizeof x);
  mbdae_state_put(&c, &x, 3);
  mbdae_state_get(&c, &x, 5);
  CU_ASSERT_EQUAL(c.pos, sizeof x + 3 + 5);
  CU_ASSERT_EQUAL(c.failed, 0);
  CU_ASSERT_EQUAL(x, 1.0); /* counting touches nothing */
}

static void test_size_from_the_field_list(void) {
  mbdae_model_kind k = fields_kind();
  double items[7];
  inst m;
  fill(&m, items, 7, 2.0);
  size_t want = sizeof(int) + sizeof(long) + 3 * sizeof(double) + 7 * sizeof(double);
  CU_ASSERT_EQUAL(mbdae_model_state_size(&k, MODEL(&m)), want);
  m.n = 0; /* the size follows the instance */
  CU_ASSERT_EQUAL(mbdae_model_state_size(&k, MODEL(&m)), want - 7 * sizeof(double));
  CU_ASSERT_EQUAL(mbdae_model_state_supported(&k), 1);
  CU_ASSERT_EQUAL(mbdae_model_state_supported(&toy_kind), 0);
  CU_ASSERT_EQUAL(mbdae_model_state_supported(NULL), 0);
}

static void test_round_trip_and_refusals(void) {
  mbdae_model_kind k = fields_kind();
  double a_items[5], b_items[5];
  inst a, b;
  fill(&a, a_items, 5, 3.0);
  fill(&b, b_items, 5, 8.0);
  size_t n = mbdae_model_state_size(&k, MODEL(&a));
  unsigned char buf[256];
  CU_ASSERT_FATAL(n <= sizeof buf);
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), buf, n), MBDAE_OK);
  /* wrong sizes: refused, b untouched */
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), buf, n - 1), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, n - 1), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, n + 1), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(b.mode, 8);
  CU_ASSERT_EQUAL(b.count, 80);
  CU_ASSERT_EQUAL(b_items[0], 800.0);
  /* the right size restores every field */
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, n), MBDAE_OK);
  CU_ASSERT_EQUAL(b.mode, 3);
  CU_ASSERT_EQUAL(b.count, 30);
  CU_ASSERT_EQUAL(memcmp(a.record, b.record, sizeof a.record), 0);
  CU_ASSERT_EQUAL(memcmp(a_items, b_items, sizeof a_items), 0);
  CU_ASSERT_PTR_EQUAL(b.per_item, b_items); /* the contents, not the pointer */
}

static void nothing(mbdae_model *model, mbdae_state_cursor *c) {
  (void)model;
  (void)c;
}

static void test_no_fields(void) {
  mbdae_model_kind k = toy_kind;
  k.state_fields = nothing; /* a kind without internal state (the rover) */
  inst a = {0};
  CU_ASSERT_EQUAL(mbdae_model_state_size(&k, MODEL(&a)), 0);
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), NULL, 0), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&a), NULL, 0), MBDAE_OK);
  unsigned char one = 0;
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&a), &one, 1), MBDAE_ERR_ARGUMENT);
}

/* the three-function form (a kind's own byte format) goes through the same
 * entry points */
static size_t three_size(const mbdae_model *m) {
  (void)m;
  return sizeof(long);
}
static int three_save(const mbdae_model *m, void *buf, size_t size) {
  if (size != sizeof(long)) return MBDAE_ERR_ARGUMENT;
  memcpy(buf, &((const inst *)m)->count, size);
  return MBDAE_OK;
}
static int three_load(mbdae_model *m, const void *buf, size_t size) {
  if (size != sizeof(long)) return MBDAE_ERR_ARGUMENT;
  memcpy(&((inst *)m)->count, buf, size);
  return MBDAE_OK;
}

static void test_three_functions(void) {
  mbdae_model_kind k = toy_kind;
  k.state_size = three_size;
  k.state_save = three_save;
  k.state_load = three_load;
  double items[1];
  inst a, b;
  fill(&a, items, 0, 4.0);
  fill(&b, items, 0, 6.0);
  unsigned char buf[sizeof(long)];
  CU_ASSERT_EQUAL(mbdae_model_state_supported(&k), 1);
  CU_ASSERT_EQUAL(mbdae_model_state_size(&k, MODEL(&a)), sizeof(long));
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), buf, sizeof buf), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, sizeof buf), MBDAE_OK);
  CU_ASSERT_EQUAL(b.count, 40);
}

static void test_registry_refuses_both_forms(void) {
  mbdae_model_kind k = fields_kind();
  k.name = "fields_and_three";
  k.state_size = three_size;
  k.state_save = three_save;
  k.state_load = three_load;
  char err[256] = "";
  CU_ASSERT_EQUAL(mbdae_model_kind_register(&k, err, sizeof err), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "not both"));
  CU_ASSERT_PTR_NULL(mbdae_model_kind_find("fields_and_three"));
}

/* a checkpoint is trusted only past its checksum: the kind's state_check
 * sees what a load restored, and its refusal is the load's */
static int check_mode(const mbdae_model *model) {
  const inst *m = (const inst *)model;
  return m->mode >= 0 && m->count >= 0 ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

static void test_state_check_after_load(void) {
  mbdae_model_kind k = fields_kind();
  k.state_check = check_mode;
  double a_items[2], b_items[2];
  inst a, b;
  fill(&a, a_items, 2, 3.0);
  fill(&b, b_items, 2, 4.0);
  unsigned char buf[256];
  size_t size = mbdae_model_state_size(&k, MODEL(&a));
  CU_ASSERT_FATAL(size <= sizeof buf);
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), buf, size), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, size), MBDAE_OK);
  a.mode = -1; /* an edited checkpoint, checksum recomputed */
  CU_ASSERT_EQUAL(mbdae_model_state_save(&k, MODEL(&a), buf, size), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_model_state_load(&k, MODEL(&b), buf, size), MBDAE_ERR_ARGUMENT);
}

static void test_every_shipped_kind_checkpoints(void) {
  int n = 0;
  for (int i = 0; mbdae_model_kinds[i]; ++i, ++n) {
    const mbdae_model_kind *k = mbdae_model_kinds[i];
    if (!mbdae_model_state_supported(k)) printf("\n  %s cannot be checkpointed", k->name);
    CU_ASSERT(mbdae_model_state_supported(k));
    CU_ASSERT_PTR_NOT_NULL(k->state_fields); /* one field list each */
    /* and a check of what a load restored (the rover keeps no fields) */
    if (!k->state_check && strcmp(k->name, "rover") != 0)
      printf("\n  %s does not check a loaded state", k->name);
    CU_ASSERT(k->state_check || !strcmp(k->name, "rover"));
  }
  CU_ASSERT(n >= 8);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"counting cursor", test_counting_cursor},
    {"size from the field list", test_size_from_the_field_list},
    {"round trip and refusals", test_round_trip_and_refusals},
    {"three functions", test_three_functions},
    {"registry refuses both forms", test_registry_refuses_both_forms},
    {"no fields: zero bytes", test_no_fields},
    {"state_check after a load", test_state_check_after_load},
    {"every shipped kind checkpoints", test_every_shipped_kind_checkpoints},
    {NULL, NULL}};
  return mbdae_test_main("state_fields", tests);
}
