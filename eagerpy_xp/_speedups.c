/* eagerpy_xp._speedups: the fast cases of `Array`'s operators, in C.
 *
 * `Array` (eagerpy_xp/_array.py) is a Python class whose operators are Python functions:
 * each first tries the fast case of the backend function behind it (its operator plan,
 * `Backend._operator_plan`), then the full path.  This module runs the same fast cases
 * without a Python frame: `install` points the interpreter's operator slots of `Array`
 * (``nb_add`` ... , ``tp_richcompare``, ``nb_negative`` ...) at the functions below and
 * leaves the Python methods where they are, in the class's dict.  So
 *
 *   - the interpreter runs ``x + y`` here: the fast case when the plan allows it, else
 *     the Python method (``Array.__dict__["__add__"]``), which is the whole operator;
 *   - whatever reads the class instead of running it sees the Python methods: ``help``,
 *     ``inspect``, and tracers such as torch.compile's Dynamo, which traces their code;
 *   - assigning any operator of `Array` again (``Array.__add__ = Array.__add__``, which
 *     `uninstall` in _array.py does) gives the interpreter the Python methods back.
 *
 * A fast case here is the Python one, test for test: the same plan, the same checks in
 * the same order, the same result (tests/test_fastpaths.py runs every case both ways).
 * Anything it does not take (another type, dtype or operand, an op that raises) goes to
 * the Python method with nothing done, which raises the contract's error where there is
 * one; only `normalize` and reading a result's dtype, which the Python fast case runs
 * outside its ``try``, raise from here.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* binary operators, in the order `install` gets them (_array._SPEEDUP_BINARY) */
enum { ADD, SUB, MUL, TRUEDIV, FLOORDIV, MOD, POW, MATMUL, AND, OR, XOR, LSHIFT, RSHIFT,
       N_BINARY };
/* comparisons come in Py_LT ... Py_GE order; unary operators in this one */
enum { NEG, POS, ABS, INVERT, N_UNARY };
#define N_COMPARE 6
/* the plans: operator_plans[function] of `Backend` */
#define BINARY_PLAN 12
#define UNARY_PLAN 7

typedef struct {
    PyObject *function;   /* the backend function's name (the plan's key) */
    PyObject *method;     /* the Python operator: Array.__dict__["__add__"] */
    PyObject *reflected;  /* Array.__dict__["__radd__"]; NULL for the others */
    PyObject *backend;    /* the last backend seen, and its plan for `function` */
    PyObject *plan;
} Operator;

static PyTypeObject *array_type = NULL;
static Py_ssize_t raw_offset, backend_offset, dtype_offset;
static Operator binary[N_BINARY], compare[N_COMPARE], unary[N_UNARY];
static PyObject *str_operator_plans, *str_normalize, *str_dtype;

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* The plan of `op` on backend `b` (borrowed; NULL, no error, when there is none of
 * `size` elements). Plans are fixed when a backend is built: one is kept per operator. */
static PyObject *
plan_of(Operator *op, PyObject *b, Py_ssize_t size)
{
#ifndef NO_PLAN_CACHE
    if (b == op->backend) {
        return op->plan;
    }
#endif
    PyObject *plans = PyObject_GetAttr(b, str_operator_plans);
    if (plans == NULL) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *plan = PyDict_Check(plans) ? PyDict_GetItemWithError(plans, op->function) : NULL;
    Py_XINCREF(plan);
    Py_DECREF(plans);
    if (plan == NULL || !PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != size) {
        PyErr_Clear();
        Py_XDECREF(plan);
        return NULL;
    }
    PyObject *old_backend = op->backend, *old_plan = op->plan;
    op->backend = Py_NewRef(b);  /* (both set before either old one is let go) */
    op->plan = plan;
    Py_XDECREF(old_backend);
    Py_XDECREF(old_plan);
    return plan;
}

/* 1 when `item` is in the frozenset `set`, 0 when not or on error (cleared). */
static int
contains(PyObject *set, PyObject *item)
{
    if (!PyAnySet_Check(set)) {
        return 0;
    }
    int found = PySet_Contains(set, item);
    if (found < 0) {
        PyErr_Clear();
        return 0;
    }
    return found;
}

/* A new Array of backend `b` wrapping `raw` (a new reference, stolen), whose dtype is
 * `dtype` (borrowed), or NULL to read it from `raw`.  `raw` not of type `t` is the
 * backend's `normalize(raw)` first.  NULL with an exception on failure. */
static PyObject *
new_array(PyObject *b, PyObject *raw, PyObject *t, PyObject *dtype)
{
    if ((PyObject *)Py_TYPE(raw) != t) {
        PyObject *normal = PyObject_CallMethodOneArg(b, str_normalize, raw);
        Py_DECREF(raw);
        if (normal == NULL) {
            return NULL;
        }
        raw = normal;
    }
    if (dtype == NULL) {
        dtype = PyObject_GetAttr(raw, str_dtype);
        if (dtype == NULL) {
            Py_DECREF(raw);
            return NULL;
        }
    }
    else {
        Py_INCREF(dtype);
    }
    PyObject *array = array_type->tp_alloc(array_type, 0);
    if (array == NULL) {
        Py_DECREF(raw);
        Py_DECREF(dtype);
        return NULL;
    }
    Py_INCREF(b);
    SLOT(array, raw_offset) = raw;
    SLOT(array, backend_offset) = b;
    SLOT(array, dtype_offset) = dtype;
    return array;
}

/* `new_array` of a fast case on arrays, whose result's dtype the plan states: the
 * array's `dtype` where `result` (the plan's last element) is None, else result[dtype]. */
static PyObject *
new_array_stated(PyObject *b, PyObject *raw, PyObject *t, PyObject *result, PyObject *dtype)
{
    if (result == Py_None) {
        return new_array(b, raw, t, dtype);
    }
    PyObject *result_dtype = PyObject_GetItem(result, dtype);
    if (result_dtype == NULL) {
        Py_DECREF(raw);
        return NULL;
    }
    PyObject *array = new_array(b, raw, t, result_dtype);
    Py_DECREF(result_dtype);
    return array;
}

static PyObject *
call2(PyObject *callable, PyObject *a, PyObject *b)
{
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(callable, args, 2, NULL);
}

/* Whether the Python scalar `other` (of type `kind`) goes to the op as it is, by the
 * plan's lanes: `scalar` is None (the op takes every scalar of the case's types), or a
 * float beside a dtype of `floats`, or an int in int32's range beside one of `ints`. */
static int
in_lane(PyObject *plan, PyTypeObject *kind, PyObject *other, PyObject *dtype)
{
    if (PyTuple_GET_ITEM(plan, 5) == Py_None) {
        return 1;
    }
    if (kind == &PyFloat_Type) {
        return contains(PyTuple_GET_ITEM(plan, 9), dtype);
    }
    if (kind == &PyLong_Type && contains(PyTuple_GET_ITEM(plan, 10), dtype)) {
        int overflow;
        long long value = PyLong_AsLongLongAndOverflow(other, &overflow);
        if (value == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return !overflow && value >= -2147483648LL && value <= 2147483647LL;
    }
    return 0;
}

static int
is_scalar_kind(PyObject *kinds, PyTypeObject *kind)
{
    if (!PyTuple_Check(kinds)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kinds); i++) {
        if (PyTuple_GET_ITEM(kinds, i) == (PyObject *)kind) {
            return 1;
        }
    }
    return 0;
}

/* ``self <op> other`` (`_array._binary_operator`'s fast case) by `plan`, on `self`'s
 * backend `b`, array `x` and `dtype` (held by the caller: the op may run Python code
 * that rebinds them or replaces the kept plan): a new reference; NULL without an
 * exception when the case does not take it; NULL with one on failure. */
static PyObject *
binary_case(PyObject *plan, PyObject *b, PyObject *x, PyObject *dtype, PyObject *other,
            int reflected)
{
    PyObject *t = PyTuple_GET_ITEM(plan, 2);
    if ((PyObject *)Py_TYPE(x) != t) {
        return NULL;
    }
    PyTypeObject *kind = Py_TYPE(other);
    PyObject *raw;
    if (kind == array_type && !reflected) {  /* two arrays of one dtype */
        PyObject *y = SLOT(other, raw_offset), *other_dtype = SLOT(other, dtype_offset);
        if (y == NULL || other_dtype == NULL || (PyObject *)Py_TYPE(y) != t) {
            return NULL;
        }
        if (dtype != other_dtype) {  /* (MLX makes a new dtype object per read) */
            int equal = PyObject_RichCompareBool(dtype, other_dtype, Py_EQ);
            if (equal != 1) {
                if (equal < 0) {
                    PyErr_Clear();
                }
                return NULL;
            }
        }
        if (!contains(PyTuple_GET_ITEM(plan, 3), dtype)) {
            return NULL;
        }
        raw = call2(PyTuple_GET_ITEM(plan, 4), x, y);
        if (raw == NULL) {
            PyErr_Clear();
            return NULL;
        }
        return new_array_stated(b, raw, t, PyTuple_GET_ITEM(plan, 11), dtype);
    }
    /* an array and a Python scalar; reflected: the scalar first */
    if (!is_scalar_kind(PyTuple_GET_ITEM(plan, 8), kind)
        || !contains(PyTuple_GET_ITEM(plan, reflected ? 7 : 3), dtype)) {
        return NULL;
    }
    PyObject *scalar_op = PyTuple_GET_ITEM(plan, 6);
    if (in_lane(plan, kind, other, dtype)) {
        raw = reflected ? call2(scalar_op, other, x) : call2(scalar_op, x, other);
    }
    else {
        PyObject *operand = call2(PyTuple_GET_ITEM(plan, 5), other, dtype);
        if (operand == NULL) {
            PyErr_Clear();
            return NULL;
        }
        if (operand == Py_None) {
            Py_DECREF(operand);
            return NULL;
        }
        raw = reflected ? call2(scalar_op, operand, x) : call2(scalar_op, x, operand);
        Py_DECREF(operand);
    }
    if (raw == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (raw == Py_None) {
        Py_DECREF(raw);
        return NULL;
    }
    return new_array(b, raw, t, NULL);  /* (its dtype is read: a scalar may change it) */
}

static PyObject *
binary_fast(Operator *op, PyObject *self, PyObject *other, int reflected)
{
    PyObject *b = SLOT(self, backend_offset), *x = SLOT(self, raw_offset);
    PyObject *dtype = SLOT(self, dtype_offset), *plan;
    if (b == NULL || x == NULL || dtype == NULL || (plan = plan_of(op, b, BINARY_PLAN)) == NULL) {
        return NULL;
    }
    Py_INCREF(plan);
    Py_INCREF(b);
    Py_INCREF(x);
    Py_INCREF(dtype);
    PyObject *result = binary_case(plan, b, x, dtype, other, reflected);
    Py_DECREF(plan);
    Py_DECREF(b);
    Py_DECREF(x);
    Py_DECREF(dtype);
    return result;
}

static PyObject *
binary_slot(int index, PyObject *a, PyObject *b)
{
    Operator *op = &binary[index];
    if (Py_TYPE(a) == array_type) {
        PyObject *result = binary_fast(op, a, b, 0);
        if (result != NULL || PyErr_Occurred()) {
            return result;
        }
        return call2(op->method, a, b);
    }
    if (Py_TYPE(b) == array_type) {
        PyObject *result = binary_fast(op, b, a, 1);
        if (result != NULL || PyErr_Occurred()) {
            return result;
        }
        return call2(op->reflected, b, a);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

#define BINARY_SLOT(name, index) \
    static PyObject *name(PyObject *a, PyObject *b) { return binary_slot(index, a, b); }
BINARY_SLOT(nb_add, ADD)
BINARY_SLOT(nb_subtract, SUB)
BINARY_SLOT(nb_multiply, MUL)
BINARY_SLOT(nb_true_divide, TRUEDIV)
BINARY_SLOT(nb_floor_divide, FLOORDIV)
BINARY_SLOT(nb_remainder, MOD)
BINARY_SLOT(nb_matrix_multiply, MATMUL)
BINARY_SLOT(nb_and, AND)
BINARY_SLOT(nb_or, OR)
BINARY_SLOT(nb_xor, XOR)
BINARY_SLOT(nb_lshift, LSHIFT)
BINARY_SLOT(nb_rshift, RSHIFT)

static PyObject *
nb_power(PyObject *a, PyObject *b, PyObject *modulo)
{
    if (modulo == Py_None) {
        return binary_slot(POW, a, b);
    }
    if (Py_TYPE(a) == array_type) {  /* three-argument pow: the method's own TypeError */
        PyObject *args[3] = {a, b, modulo};
        return PyObject_Vectorcall(binary[POW].method, args, 3, NULL);
    }
    Py_RETURN_NOTIMPLEMENTED;
}

static PyObject *
tp_richcompare(PyObject *self, PyObject *other, int which)
{
    if (which < 0 || which >= N_COMPARE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    Operator *op = &compare[which];
    if (Py_TYPE(self) == array_type) {
        PyObject *result = binary_fast(op, self, other, 0);
        if (result != NULL || PyErr_Occurred()) {
            return result;
        }
    }
    return call2(op->method, self, other);
}

/* ``<op> self`` (`_array._unary_operator`'s fast case) by `plan`, held as in
 * `binary_case`; the same three outcomes. */
static PyObject *
unary_case(PyObject *plan, PyObject *b, PyObject *x, PyObject *dtype)
{
    PyObject *t = PyTuple_GET_ITEM(plan, 2);
    if ((PyObject *)Py_TYPE(x) != t) {
        return NULL;
    }
    int checked = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 5));
    if (checked < 0) {
        PyErr_Clear();
        return NULL;
    }
    if (!checked && !contains(PyTuple_GET_ITEM(plan, 3), dtype)) {
        return NULL;
    }
    PyObject *raw = PyObject_CallOneArg(PyTuple_GET_ITEM(plan, 4), x);
    if (raw == NULL) {
        PyErr_Clear();
        return NULL;
    }
    if (raw == Py_None) {  /* a checked op: its dtype is not the case's */
        Py_DECREF(raw);
        return NULL;
    }
    return new_array_stated(b, raw, t, PyTuple_GET_ITEM(plan, 6), dtype);
}

static PyObject *
unary_slot(int index, PyObject *self)
{
    Operator *op = &unary[index];
    PyObject *b = SLOT(self, backend_offset), *x = SLOT(self, raw_offset);
    PyObject *dtype = SLOT(self, dtype_offset), *plan;
    if (Py_TYPE(self) == array_type && b != NULL && x != NULL && dtype != NULL
        && (plan = plan_of(op, b, UNARY_PLAN)) != NULL) {
        Py_INCREF(plan);
        Py_INCREF(b);
        Py_INCREF(x);
        Py_INCREF(dtype);
        PyObject *result = unary_case(plan, b, x, dtype);
        Py_DECREF(plan);
        Py_DECREF(b);
        Py_DECREF(x);
        Py_DECREF(dtype);
        if (result != NULL || PyErr_Occurred()) {
            return result;
        }
    }
    return PyObject_CallOneArg(op->method, self);
}

static PyObject *nb_negative(PyObject *self) { return unary_slot(NEG, self); }
static PyObject *nb_positive(PyObject *self) { return unary_slot(POS, self); }
static PyObject *nb_absolute(PyObject *self) { return unary_slot(ABS, self); }
static PyObject *nb_invert(PyObject *self) { return unary_slot(INVERT, self); }

/* The offset of the object slot `name` of `cls` (its member descriptor's). */
static int
slot_offset(PyTypeObject *cls, const char *name, Py_ssize_t *offset)
{
    PyObject *descr = PyDict_GetItemString(cls->tp_dict, name);
    if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)
        || ((PyMemberDescrObject *)descr)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "eagerpy_xp._speedups.install: %s.%s is not an object slot",
                     cls->tp_name, name);
        return -1;
    }
    *offset = ((PyMemberDescrObject *)descr)->d_member->offset;
    return 0;
}

/* Fill `ops` from a tuple of `n` (function name, method[, reflected method]) tuples. */
static int
set_operators(Operator *ops, int n, PyObject *spec, int with_reflected)
{
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != n) {
        PyErr_Format(PyExc_ValueError, "eagerpy_xp._speedups.install: expected %d operators", n);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(spec, i);
        Py_ssize_t size = with_reflected ? 3 : 2;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != size
            || !PyUnicode_Check(PyTuple_GET_ITEM(item, 0))) {
            PyErr_SetString(PyExc_ValueError,
                            "eagerpy_xp._speedups.install: an operator is (function, method[, reflected])");
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(spec, i);
        Py_XSETREF(ops[i].function, Py_NewRef(PyTuple_GET_ITEM(item, 0)));
        Py_XSETREF(ops[i].method, Py_NewRef(PyTuple_GET_ITEM(item, 1)));
        Py_XSETREF(ops[i].reflected, with_reflected ? Py_NewRef(PyTuple_GET_ITEM(item, 2)) : NULL);
        Py_CLEAR(ops[i].backend);
        Py_CLEAR(ops[i].plan);
    }
    return 0;
}

static PyObject *
install(PyObject *module, PyObject *args)
{
    PyTypeObject *cls;
    PyObject *binaries, *comparisons, *unaries;
    if (!PyArg_ParseTuple(args, "O!OOO:install", &PyType_Type, &cls, &binaries, &comparisons,
                          &unaries)) {
        return NULL;
    }
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE) || cls->tp_as_number == NULL) {
        PyErr_SetString(PyExc_TypeError, "eagerpy_xp._speedups.install: expected a Python class");
        return NULL;
    }
    Py_ssize_t raw, backend, dtype;
    if (slot_offset(cls, "_raw", &raw) < 0 || slot_offset(cls, "_b", &backend) < 0
        || slot_offset(cls, "_dt", &dtype) < 0
        || set_operators(binary, N_BINARY, binaries, 1) < 0
        || set_operators(compare, N_COMPARE, comparisons, 0) < 0
        || set_operators(unary, N_UNARY, unaries, 0) < 0) {
        return NULL;
    }
    raw_offset = raw;
    backend_offset = backend;
    dtype_offset = dtype;
    Py_INCREF(cls);
    Py_XSETREF(array_type, cls);
    PyNumberMethods *nb = cls->tp_as_number;
    nb->nb_add = nb_add;
    nb->nb_subtract = nb_subtract;
    nb->nb_multiply = nb_multiply;
    nb->nb_true_divide = nb_true_divide;
    nb->nb_floor_divide = nb_floor_divide;
    nb->nb_remainder = nb_remainder;
    nb->nb_power = nb_power;
    nb->nb_matrix_multiply = nb_matrix_multiply;
    nb->nb_and = nb_and;
    nb->nb_or = nb_or;
    nb->nb_xor = nb_xor;
    nb->nb_lshift = nb_lshift;
    nb->nb_rshift = nb_rshift;
    nb->nb_negative = nb_negative;
    nb->nb_positive = nb_positive;
    nb->nb_absolute = nb_absolute;
    nb->nb_invert = nb_invert;
    cls->tp_richcompare = tp_richcompare;
    PyType_Modified(cls);
    Py_RETURN_NONE;
}

/* Whether the interpreter runs `cls`'s operators here. */
static PyObject *
installed(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || ((PyTypeObject *)cls)->tp_as_number == NULL) {
        Py_RETURN_FALSE;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    return PyBool_FromLong(type == array_type && type->tp_as_number->nb_add == nb_add
                           && type->tp_richcompare == tp_richcompare);
}

static PyMethodDef methods[] = {
    {"install", install, METH_VARARGS,
     "install(cls, binaries, comparisons, unaries): run cls's operators' fast cases here."},
    {"installed", installed, METH_O, "installed(cls): whether cls's operators run here."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "eagerpy_xp._speedups",
    "The fast cases of Array's operators, in C (see the source's head).", -1, methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    str_operator_plans = PyUnicode_InternFromString("operator_plans");
    str_normalize = PyUnicode_InternFromString("normalize");
    str_dtype = PyUnicode_InternFromString("dtype");
    if (str_operator_plans == NULL || str_normalize == NULL || str_dtype == NULL) {
        return NULL;
    }
    return PyModule_Create(&module_def);
}
