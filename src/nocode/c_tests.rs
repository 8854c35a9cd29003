//! The no-code rule for C and C++ ([`super::classify`]), as a table of sources and answers.

use super::*;

/// The rule for a header: most tables hold declarations as a header would.
fn classify(text: &[u8]) -> CSource {
    super::classify(text, Unit::Header)
}

/// (source, expected): the answer, with the line where code begins.
const TABLE: &[(&str, CSource)] = &[
    // Declarations only.
    (
        "#ifndef KV_H\n#define KV_H\n/* no code */\n#include <stddef.h>\n\
         enum kv_status { KV_OK = 0, KV_EMPTY };\n\
         struct kv_pair { char key[16]; long value; };\n\
         typedef int (*kv_visitor)(const struct kv_pair *pair, void *ctx);\n\
         extern const char *const kv_status_names[];\n\
         enum kv_status kv_parse(const char *line, struct kv_pair *out);\n#endif\n",
        CSource::NoCode,
    ),
    // Macros only, a function-like macro with a body among them.
    (
        "#define KV_MAX_KEY 16\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n\
         #define DEFINE_GETTER(name) \\\n  int get_##name(void) { return name; }\n",
        CSource::NoCode,
    ),
    // static inline functions.
    (
        "/* helpers */\nstatic inline int kv_is_digit(char c) { return c >= '0' && c <= '9'; }\n",
        CSource::HasCode(2),
    ),
    // A function template.
    (
        "template <typename T = int>\nT clamp_to(T v, T lo, T hi) {\n  return v < lo ? lo : v;\n}\n",
        CSource::HasCode(2),
    ),
    // A class with a member function defined inside it.
    (
        "class Counter {\n public:\n  int next() const noexcept { return n_++; }\n  mutable int n_ = 0;\n};\n",
        CSource::HasCode(3),
    ),
    // A class of declarations, defaulted and deleted members, pure virtuals.
    (
        "namespace app {\nclass [[nodiscard]] Shape : public Base {\n public:\n  Shape() = default;\n\
         Shape(const Shape&) = delete;\n  virtual ~Shape();\n  virtual double area() const = 0;\n\
         static constexpr int kSides{4};\n  int table[3]{1, 2, 3};\n};\n}  // namespace app\n",
        CSource::NoCode,
    ),
    // A constructor with initialisers, outside its class.
    ("S::S(int a) : a_(a), b_{a} {}\n", CSource::HasCode(1)),
    // A trailing return type.
    ("auto twice(int x) -> std::vector<int> {\n  return {x, x};\n}\n", CSource::HasCode(1)),
    // An attribute between the parameters and the body.
    ("void cold() __attribute__((cold)) {\n}\n", CSource::HasCode(1)),
    // Attributes that are not parameter lists.
    (
        "struct __attribute__((packed)) wire { char a; int b; };\n\
         __declspec(dllexport) int exported(void);\nalignas(16) struct aligned { int x; };\n",
        CSource::NoCode,
    ),
    // Compound literals and calls in initialisers are not bodies.
    (
        "static const struct point origin = (struct point){0, 0};\n\
         static const int n = sizeof(struct point);\nint a[] = {1, (2), 3};\n",
        CSource::NoCode,
    ),
    // A lambda at namespace scope, with and without parameters, and inside a call.
    ("auto f = [](int x) { return x + 1; };\n", CSource::HasCode(1)),
    ("auto g = [] { return 1; };\n", CSource::HasCode(1)),
    ("int r = run([](int x) { return x; });\n", CSource::HasCode(1)),
    ("S s([] { return 1; });\n", CSource::HasCode(1)),
    // extern "C" blocks of prototypes.
    (
        "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint c_api(int);\n#ifdef __cplusplus\n}\n#endif\n",
        CSource::NoCode,
    ),
    // Braces and parentheses in comments, strings, characters and raw strings.
    (
        "// int f() {\n/* int g() {\n} */\nconst char *s = \"int h() {\";\nconst char c = '(';\n\
         const wchar_t w = L'(';\nconst char *raw = R\"x(int k() { )\" )x\";\nint decl(void);\n",
        CSource::NoCode,
    ),
    // A digit separator is not a character literal.
    ("const long big = 1'000'000;\nint after(void) { return 0; }\n", CSource::HasCode(2)),
    // A macro call first in a statement, in a namespace: it may define functions.
    ("DECLARE_HANDLE(window)\nstruct window_info { int w; };\n", CSource::MacroCall(1)),
    ("/* x */\nDEFINE_HANDLER(foo)\n", CSource::MacroCall(2)),
    ("int a;\nDEFINE_HANDLER(foo);\n", CSource::MacroCall(2)),
    ("namespace app {\nREGISTER(x)\n}\n", CSource::MacroCall(2)),
    ("extern \"C\" {\nEXPORT(f)\n}\n", CSource::MacroCall(2)),
    ("struct S { int a; };\nDEFINE_OPS(S)\n", CSource::MacroCall(2)),
    // Macro calls that stand alone: several in a row, before a statement, at the end.
    ("DEFINE_HANDLER(a)\nDEFINE_HANDLER(b)\n", CSource::MacroCall(1)),
    ("DEFINE_HANDLER(a)\nDEFINE_HANDLER(b)\nstatic int x;\n", CSource::MacroCall(1)),
    ("DEFINE_HANDLER(a)\nint x;\n", CSource::MacroCall(1)),
    ("DEFINE_HANDLER(a)\nfoo_t x;\n", CSource::MacroCall(1)),
    ("API(int)\nf(int y = 1);\n", CSource::NoCode),
    ("DEFINE_HANDLER(a)\nconst foo_t *x = 0;\n", CSource::MacroCall(1)),
    ("struct S {\n  DEFINE_GETTER(x)\n  foo_t y;\n};\n", CSource::MacroCall(2)),
    ("namespace n {\nDEFINE(a)\nDEFINE(b)\n}\n", CSource::MacroCall(2)),
    ("DEFINE(a) \"x\"\n", CSource::MacroCall(1)),
    ("DEFINE(a) R\"(x)\"\n", CSource::MacroCall(1)),
    ("DEFINE(a)(b)\n", CSource::MacroCall(1)),
    ("TEST(suite, name) {\n}\n", CSource::HasCode(1)),
    // Declarations with a macro for their type (as system headers write them).
    (
        "XMLPARSEAPI(void)\nXML_SetHandler(XML_Parser parser, int h);\n\
         EXTERN(struct jpeg *) jpeg_std_error(struct jpeg *err);\n\
         NCURSES_EXPORT(NCURSES_CONST char *) unctrl (chtype);\nAPI(int) *make(void) __THROW;\n\
         API(int) table[2] = {1, 2};\nAPI(int) f(int x = {1}), g(void);\n\
         struct link_map {\n  ElfW(Addr) l_addr;\n  char *l_name;\n};\n",
        CSource::NoCode,
    ),
    // In a class: a macro call unless a declaration's `;`, `=`, `:` or `{` follows.
    ("class W {\n  DECLARE_MEMBERS(W)\n public:\n  int x;\n};\n", CSource::MacroCall(2)),
    ("struct S {\n  DEFINE_GETTER(x)\n};\n", CSource::MacroCall(2)),
    ("struct S {\n  DEFINE_GETTER(x)\n  virtual ~S();\n};\n", CSource::MacroCall(2)),
    ("struct S {\n  DEFINE_GETTER(x) \"s\";\n};\n", CSource::MacroCall(2)),
    ("struct S {\n  S(int) : S() {}\n};\n", CSource::HasCode(2)),
    (
        "class S {\n public:\n  S();\n  S(int) noexcept;\n  S(const S&) = delete;\n\
         explicit S(char);\n  S(long) const volatile, *p;\n private:\n  int x : 3;\n  S(short);\n};\n",
        CSource::NoCode,
    ),
    // Groups that are no macro call: keywords, function pointers, enumerators, initialisers.
    (
        "_Static_assert(sizeof(int) == 4, \"x\");\nint (*fp)(int);\nmy_t (*gp)(int);\n\
         my_t (&rp)(int);\nvoid (*signal(int, void (*)(int)))(int);\ndecltype(f()) x;\n\
         _Pragma(\"once\")\n__asm__(\".globl x\");\nenum E { X(a) X(b) };\n\
         enum class F : int { Y(a) };\nstruct P { int x; } p = { FOO(1) };\nS s{FOO(1)};\n\
         ns::S::T(x);\n",
        CSource::NoCode,
    ),
    // Operator functions: the symbol is no initialiser's `=` nor a template's `<`.
    ("bool operator==(const A& a, const A& b) { return true; }\n", CSource::HasCode(1)),
    ("A& A::operator+=(const A& o) {\n  return *this;\n}\n", CSource::HasCode(1)),
    ("bool operator<(A a, A b) { return false; }\n", CSource::HasCode(1)),
    ("bool operator >= (A a, A b) { return false; }\n", CSource::HasCode(1)),
    ("auto operator<=>(const A&) const = default;\nbool operator!=(A, A) {}\n", CSource::HasCode(2)),
    ("std::ostream& operator<<(std::ostream& os, const A&) { return os; }\n", CSource::HasCode(1)),
    ("Y* P::operator->() { return p; }\n", CSource::HasCode(1)),
    ("T V::operator[](int i) const { return v[i]; }\n", CSource::HasCode(1)),
    ("int F::operator()(int x) const { return x; }\n", CSource::HasCode(1)),
    ("A::operator bool() const { return true; }\n", CSource::HasCode(1)),
    ("long double operator\"\"_km(long double v) { return v; }\n", CSource::HasCode(1)),
    ("void* operator new[](size_t n) { return 0; }\n", CSource::HasCode(1)),
    ("bool operator\n==(A, A) {}\n", CSource::HasCode(2)),
    (
        "struct A {\n  bool operator==(const A&) const;\n  A& operator=(const A&) = default;\n\
         bool operator<(const A&) const;\n  int operator()(int) const;\n\
         explicit operator bool() const;\n  A& operator<<=(int);\n  A operator,(A);\n};\n",
        CSource::NoCode,
    ),
    // Lambdas in braces, constexpr and inline functions, templates; concepts are no code.
    ("auto x{[] { return 1; }()};\n", CSource::HasCode(1)),
    ("int a[3] {1, 2, 3};\nint m[2][2]{{1, 2}, {3, 4}};\n", CSource::NoCode),
    ("constexpr int sq(int x) { return x * x; }\n", CSource::HasCode(1)),
    (
        "template <typename T, typename = std::enable_if_t<(sizeof(T) > 1)>>\n\
         inline T id(T v) noexcept { return v; }\n",
        CSource::HasCode(2),
    ),
    ("template <class T>\nconcept C = requires(T t) { t.f(); };\n", CSource::NoCode),
    ("template <>\nstruct H<int> {\n  static int f() { return 1; }\n};\n", CSource::HasCode(3)),
    // A function-try-block, an operator() and static_assert.
    (
        "static_assert(sizeof(int) == 4, \"int\");\nbool operator()(int x) const { return x; }\n",
        CSource::HasCode(2),
    ),
    ("void risky() try { work(); } catch (...) {}\n", CSource::HasCode(1)),
    // A `#` within a line, negative numbers, sums, prefixed strings and raw strings.
    (
        "int a = 1 # 2;\nint b = -1 + 2 * f(c + d);\nconst wchar_t *w = L\"(\";\n\
         const char *r1 = u8R\"(()\";\nconst char *r2 = uR\"(()\";\nconst char *r3 = UR\"(()\";\n\
         const char *r4 = LR\"x( )xy )x\";\n/* a * b */\nint f(void) {}\n",
        CSource::HasCode(9),
    ),
    // A macro call after storage classes or qualifiers is a macro call.
    ("static DEFINE_OP(add, +)\nextern DEFINE_OP(sub, -)\n", CSource::MacroCall(1)),
    ("extern DEFINE_OP(sub, -)\n", CSource::MacroCall(1)),
    ("static inline M(x)\n", CSource::MacroCall(1)),
    ("const M(x)\n", CSource::MacroCall(1)),
    ("static DEFINE_OP(add, +);\n", CSource::MacroCall(1)),
    ("int a;\nstatic __extension__ M(x)\nint b;\n", CSource::MacroCall(2)),
    // A body whose `{` follows no parameter list: after a K&R parameter's declaration, a `;`,
    // a trailing return type's `>`, an attribute's `]]`.
    ("int kr(a) foo_t a; { return a + 1; }\n", CSource::HasCode(1)),
    ("int f(int a)\n;\n{ return a; }\n", CSource::HasCode(3)),
    ("{ }\n", CSource::HasCode(1)),
    ("auto f() -> std::array<int, (1 > 0) ? 2 : 3> { return {}; }\n", CSource::HasCode(1)),
    ("int f() [[gnu::cold]] { return 1; }\n", CSource::HasCode(1)),
    ("struct S {\n  int f() [[gnu::cold]] { return 1; }\n};\n", CSource::HasCode(2)),
    ("auto l = [x = a[1]] { return x; };\n", CSource::HasCode(1)),
    // Declarations that stay no code: storage classes before declarations, constructors after
    // `constexpr`, brace initialisers, trailing return types, requires clauses, `_Pragma`, a
    // name and its declarator on one line, conditionals between declarations and members,
    // `<::` in a template argument.
    (
        "static const int a = 1;\nextern int (*fp)(int);\nstatic my_t (*gp)(int);\n\
         extern API(int) f(void);\ninline namespace v1 { int x; }\nstatic_assert(1, \"x\");\n\
         struct S {\n  constexpr S(int) noexcept;\n  constexpr S() = default;\n\
         static constexpr int k{4};\n  int m[2]{1, 2};\n  int g() [[gnu::cold]];\n\
         #ifdef X\n  int h;\n#endif\n public:\n  int i;\n};\n\
         auto t() -> int;\nauto u() -> std::array<int, 2>;\n\
         template <class T> requires (sizeof(T) > 1) void v(T);\n\
         template <class T, int (*F)(int)> void w();\n\
         _Pragma(\"GCC diagnostic push\")\nint after_pragma;\n__pragma(warning(push))\n\
         EXPORT int exported(void);\nfoo_t\nfoo_create(void);\nstd::vector<::id> ids;\n\
         enum E {\n  A,\n#if X\n  B,\n#endif\n};\nint arr[] = {\n#if X\n  1,\n#endif\n  2};\n",
        CSource::NoCode,
    ),
    // Type words in initialisers, a keyword first on its line before a type, a name first in a
    // class before a member, `_Pragma` in parentheses, a `#define` inside a declaration, `??`
    // that is no trigraph.
    (
        "int x = int(1) + sizeof(long);\nS s{int(1)};\ntypedef\nunsigned long T;\n\
         struct S {\n  FOO\n  int x;\n};\nS s(_Pragma(\"x\") 1);\nint a =\n#define X 1\n  2;\n\
         int q = b ?? c;\ntypedef;\n#define INIT { 1, 2 }\nint i[] = INIT;\n\
         struct P p = { INIT };\n#define\n#pragma once\n",
        CSource::NoCode,
    ),
    // A preprocessor line continued over several lines.
    ("#define BODY \\\n  int f(void) { \\\n  return 0; }\nint g(void);\n", CSource::NoCode),
];

#[test]
fn the_no_code_rule_on_a_table_of_sources() {
    for (source, expected) in TABLE {
        assert_eq!(classify(source.as_bytes()), *expected, "source:\n{source}");
    }
}

const RAW_NEVER_ENDS: &str = "a raw string literal that begins on line {line} never ends, or its \
     delimiter is not one (at most 16 characters, no space, `)`, `\\` or `\"`)";

#[test]
fn unterminated_comments_and_raw_strings_are_unparsable() {
    assert_eq!(
        classify(b"int a;\n/* open\n\n"),
        CSource::Unparsable("a comment that begins on line 2 never ends".into())
    );
    assert_eq!(
        classify(b"const char *r = R\"d(open )\"\n"),
        CSource::Unparsable(RAW_NEVER_ENDS.replace("{line}", "1"))
    );
    assert_eq!(
        classify(b"const char *r = R\"no paren"),
        CSource::Unparsable(RAW_NEVER_ENDS.replace("{line}", "1"))
    );
}

#[test]
fn extensions_are_the_c_family() {
    for ext in [
        "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "inl", "H", "CPP",
    ] {
        assert!(is_c_family(ext), "{ext}");
    }
    assert!(!is_c_family("rs"));
    assert!(!is_c_family("py"));
}

#[test]
fn deep_nesting_and_stray_closers_stay_bounded() {
    let mut text = "(".repeat(10_000);
    text.push_str(&")".repeat(10_001));
    text.push_str(" ;\nint later(void) { }\n");
    assert_eq!(classify(text.as_bytes()), CSource::HasCode(2));
    // Braces deeper than remembered hold no macro calls; the file level after them does.
    let mut text = "namespace a {\n".repeat(300);
    text.push_str("FOO(x)\n");
    text.push_str(&"}\n".repeat(300));
    text.push_str("BAR(y)\n");
    assert_eq!(classify(text.as_bytes()), CSource::MacroCall(602));
    let big = "struct s { int a; };\n".repeat(200_000);
    assert_eq!(classify(big.as_bytes()), CSource::NoCode);
}

#[test]
fn strings_left_open_end_at_their_line() {
    assert_eq!(
        classify(b"const char *s = \"open\n;\nint f(void) {}\n"),
        CSource::HasCode(3)
    );
    assert_eq!(
        classify(b"const char *s = \"esc\\\"aped\";\n"),
        CSource::NoCode
    );
}

#[test]
fn text_ending_inside_a_line_comment_or_a_literal() {
    assert_eq!(classify(b"int a; // end"), CSource::NoCode);
    assert_eq!(classify(b"#define X 1"), CSource::NoCode);
    // A declaration cut off by the end of the text is not recognised.
    let open = CSource::Unrecognised(1, "a construct that does not end like a declaration");
    assert_eq!(classify(b"const char *s = \"open"), open);
    assert_eq!(classify(b"const char c = '\\"), open);
}

/// Not recognised as a declaration: each counts as code (line, what).
const UNRECOGNISED: &[(&str, u64, &str)] = &[
    // A macro call after storage classes or qualifiers, or after a type, without `;`: the
    // macro may define a function (`#define DEFINE_OP(n, op) int n(int a, int b) { … }`).
    ("T DEFINE_OP(mul, *)\n", 1, NOT_ENDED),
    ("typedef int T;\nT DEFINE_OP(mul, *)\n", 2, NOT_ENDED),
    ("T M(x)\nint y;\n", 1, PARAMS_THEN_DECLARATION),
    ("struct S { int a; }\n", 1, NOT_ENDED),
    ("namespace n {\nT M(x)\n}\n", 2, NOT_ENDED),
    ("struct S {\n  F\n};\n", 2, NOT_ENDED),
    // An object-like macro used at file scope (`#define F int f(…) {…}` then `F`).
    ("#define F int f(int a) { return a; }\nF\n", 2, BODIED),
    ("F\n", 1, NOT_ENDED),
    ("IMPLEMENT_TESTS\nint x;\n", 1, ALONE_ON_LINE),
    ("IMPLEMENT_TESTS\nstatic struct s *p;\n", 1, ALONE_ON_LINE),
    ("int a;\nDECLARE_STUFF;\n", 2, NAME_ALONE),
    ("struct S {\n  DECLARE_MEMBERS;\n};\n", 2, NAME_ALONE),
    // A K&R definition whose parameter is declared with a built-in type.
    (
        "int kr(a) int a; { return a + 1; }\n",
        1,
        PARAMS_THEN_DECLARATION,
    ),
    (
        "int kr(a, b) char *b; { return a; }\n",
        1,
        PARAMS_THEN_DECLARATION,
    ),
    // A preprocessor conditional inside a declaration may hide its end or its body.
    (
        "int split(int a)\n#ifdef NO_BODY\n;\n#else\n{\n  return a * 2;\n}\n#endif\n",
        2,
        CONDITIONAL,
    ),
    ("static\n#if A\nint f(void);\n#endif\n", 2, CONDITIONAL),
    (
        "int g(int a,\n  # if X\n  int b);\n  #endif\n",
        2,
        CONDITIONAL,
    ),
    ("int f(int a;\n#if X\nint b);\n#endif\n", 2, CONDITIONAL),
    // A use of a macro that this file defines with a `{`, in a declaration's shape.
    ("#define F int f(void) { return 1; }\nF int x;\n", 2, BODIED),
    (
        "#define M(x) x(void) { return 3; }\ntypedef int T;\nT M(m);\n",
        3,
        BODIED,
    ),
    (
        "# define M(x) \\\n  int x(void) { return 1; }\nstruct S { M(b); };\n",
        3,
        BODIED,
    ),
    // Digraphs and trigraphs.
    ("int f(void) <% return 1; %>\n", 1, DIGRAPH),
    ("int f(void) ??< return 1; ??>\n", 1, DIGRAPH),
    ("int a<:2:> = {1, 2};\n", 1, DIGRAPH),
    ("%:define X 1\n", 1, DIGRAPH),
    ("int a; int b[1] :> ;\n", 1, DIGRAPH),
    ("std::vector<:::x> v;\n", 1, DIGRAPH),
    ("std::vector<::> v;\n", 1, DIGRAPH),
    // Unbalanced braces or parentheses at the end.
    ("namespace n {\nint x;\n", 3, UNBALANCED),
    ("int f(int a;\n", 2, UNBALANCED),
    (
        "#if A\nnamespace a {\n#else\nnamespace b {\n#endif\n}\n",
        7,
        UNBALANCED,
    ),
];

const NOT_ENDED: &str = "a construct that does not end like a declaration";
const PARAMS_THEN_DECLARATION: &str =
    "a parameter list followed by another declaration's first word";
const ALONE_ON_LINE: &str =
    "a name alone on its line, which may be a macro that expands to functions";
const NAME_ALONE: &str = "a name alone before `;`, which may be a macro that expands to functions";
const CONDITIONAL: &str = "a preprocessor conditional inside a declaration";
const BODIED: &str = "a macro that this file defines with a `{`";
const DIGRAPH: &str = "a digraph or trigraph";
const UNBALANCED: &str = "the text ends inside braces or parentheses";

#[test]
fn constructs_not_recognised_as_declarations_count_as_code() {
    for &(source, line, what) in UNRECOGNISED {
        assert_eq!(
            classify(source.as_bytes()),
            CSource::Unrecognised(line, what),
            "source:\n{source}"
        );
    }
}

#[test]
fn raw_string_delimiters_are_bounded_so_hostile_text_costs_linear_time() {
    // 17 characters, or a `)` in it: not a delimiter (the compiler rejects both).
    let long = b"int a;\nconst char *r = R\"abcdefghijklmnopq(x)abcdefghijklmnopq\";\n";
    assert_eq!(
        classify(long),
        CSource::Unparsable(RAW_NEVER_ENDS.replace("{line}", "2"))
    );
    let paren = b"const char *r = R\"a)b(x)a)b\";\n";
    assert_eq!(
        classify(paren),
        CSource::Unparsable(RAW_NEVER_ENDS.replace("{line}", "1"))
    );
    // 16 characters is a delimiter.
    let longest = b"const char *r = R\"abcdefghijklmnop(x)abcdefghijklmnop\";\n";
    assert_eq!(classify(longest), CSource::NoCode);
    // Each `)` of a body after a delimiter of a million `)`s compared the whole delimiter:
    // quadratic, minutes in a debug build. 3 MiB now take milliseconds.
    let started = std::time::Instant::now();
    let mut parens = b"R\"".to_vec();
    parens.extend(std::iter::repeat_n(b')', 1 << 20));
    parens.push(b'(');
    parens.extend(std::iter::repeat_n(b')', 2 << 20));
    assert_eq!(
        classify(&parens),
        CSource::Unparsable(RAW_NEVER_ENDS.replace("{line}", "1"))
    );
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}

#[test]
fn c_linkage_bracket_macros_begin_no_statement() {
    for source in [
        "__BEGIN_DECLS\nint f(void);\n__END_DECLS\n",
        "G_BEGIN_DECLS\ntypedef struct s S;\nG_END_DECLS\n",
        "BEGIN_C_DECLS\nextern int x;\nEND_C_DECLS\n",
    ] {
        assert_eq!(classify(source.as_bytes()), CSource::NoCode, "{source}");
    }
    // Only those names: another name alone on its line still counts as code, and a bracket
    // macro does not hide a body after it.
    assert_eq!(
        classify(b"MY_BEGIN\nint f(void);\n"),
        CSource::Unrecognised(1, ALONE_ON_LINE)
    );
    assert_eq!(
        classify(b"__BEGIN_DECLS\nint f(void) { return 1; }\n"),
        CSource::HasCode(2)
    );
}

#[test]
fn a_block_comment_that_spans_lines_continues_its_directive() {
    // glibc's `# define NO_DATA 4 /* Valid name, … ⏎ type.  */` then `#ifdef`.
    let spans = "#define A 1 /* a comment,\n that's not code */\n#ifdef X\nint x;\n#endif\n";
    assert_eq!(classify(spans.as_bytes()), CSource::NoCode);
    // What follows the comment on its last line is still the directive's.
    let after = "#define A 1 /* x\n */ + 2\nint f(void) { return 1; }\n";
    assert_eq!(classify(after.as_bytes()), CSource::HasCode(3));
    // A `/*` in a string opens no comment; an apostrophe left open ends at its line.
    let quoted = "#define S \"/*\"\nint f(void) { return 1; }\n";
    assert_eq!(classify(quoted.as_bytes()), CSource::HasCode(2));
    let apostrophe = "#error don't\nint f(void) { return 1; }\n";
    assert_eq!(classify(apostrophe.as_bytes()), CSource::HasCode(2));
    // A line comment and an escaped newline end or continue it as before.
    let line = "#define A 1 // c\nint f(void) { return 1; }\n";
    assert_eq!(classify(line.as_bytes()), CSource::HasCode(2));
    let continued = "#define A 1 \\\n + 2\nint f(void) { return 1; }\n";
    assert_eq!(classify(continued.as_bytes()), CSource::HasCode(3));
    assert!(matches!(
        classify(b"int x;\n#define A /* open"),
        CSource::Unparsable(_)
    ));
}

#[test]
fn a_lone_cr_ends_a_directive_and_a_line_comment() {
    // clang ends a line at a lone CR: the function after the `#include` is code, on line 2.
    assert_eq!(
        classify(b"#include <stdio.h>\rint untested(int a) { return a * 3; }\n"),
        CSource::HasCode(2)
    );
    // A classic-Mac file (CR only): its `//` comment ends with its line.
    assert_eq!(
        classify(b"// one\rint f(void);\rint g(void) { return 1; }\r"),
        CSource::HasCode(3)
    );
    assert_eq!(classify(b"// one\r\nint f(void);\r\n"), CSource::NoCode);
}

const IN_SOURCE: &str =
    "a name after a parameter list in a source file, which may be a macro that \
                         expands to the function's body";
const QUALIFIED: &str = "a name after the parameter list of a qualified name outside its class, \
                         which can only be a definition whose body is that macro";
const STATIC: &str = "a name after the parameter list of a `static` function, which may be a \
                      macro that expands to its body";

/// Declarations with a name after the parameter list that stay no code in a header and in a
/// source (attribute macros in a header; keywords, trailing return types, `requires`).
#[test]
fn names_after_a_parameter_list_in_a_header_are_attribute_macros() {
    let header = [
        "void die(void) NORETURN;\n",
        "extern int atoi (const char *__nptr)\n     __THROW __attribute_pure__ __nonnull ((1)) __wur;\n",
        "int g(void) G_GNUC_CONST;\nint (h)(void) ATTR;\n",
        "class S {\n  int f() BODY;\n  static int g() ATTR;\n};\n",
        "namespace n { extern \"C\" { int f(int) NOEXCEPT; } }\n",
        "template <class T> T at(T *p) MAY_ALIAS;\nstd::string name() ATTR;\n",
    ];
    for source in header {
        assert_eq!(classify(source.as_bytes()), CSource::NoCode, "{source}");
    }
    let both = [
        "auto t() -> Foo;\nauto u() -> std::vector<Bar>;\n",
        "template <class T> void v(T) requires Small<T>;\n",
        "int f(void) __attribute__((noreturn));\nvoid g() const noexcept override;\n",
        "int f(void) asm(\"other\");\nstatic int g(void);\nint S::h();\nint x = f() + y;\n",
        "void f() throw(std::bad_alloc);\nint g() = delete;\n",
        "API(int) f(void);\nElfW(Addr) a, b;\nstatic API(int) g(int);\nElfW(Addr) *p;\n",
    ];
    for source in both {
        for unit in [Unit::Header, Unit::Source] {
            assert_eq!(
                super::classify(source.as_bytes(), unit),
                CSource::NoCode,
                "{unit:?}: {source}"
            );
        }
    }
}

/// A name after a parameter list that may be a macro expanding to the body (`int f(void)
/// STUB_BODY;` with `#define STUB_BODY { … }`): unrecognised in a source file, and in a header
/// for a qualified name outside its class or a `static` function.
#[test]
fn names_after_a_parameter_list_that_may_be_bodies_are_unrecognised() {
    let cases: &[(&str, Unit, u64, &str)] = &[
        (
            "#include \"body.h\"\nint stub_open(void) STUB_BODY;\n",
            Unit::Source,
            2,
            IN_SOURCE,
        ),
        (
            "class S {\n  int f() BODY;\n};\n",
            Unit::Source,
            2,
            IN_SOURCE,
        ),
        ("void die(void) NORETURN;\n", Unit::Source, 1, IN_SOURCE),
        ("API(int) f(void) BODY;\n", Unit::Source, 1, IN_SOURCE),
        ("static API(int) f(void) BODY;\n", Unit::Header, 1, STATIC),
        ("struct S {\n  S() BODY;\n};\n", Unit::Source, 2, IN_SOURCE),
        ("int S::f() BODY;\n", Unit::Header, 1, QUALIFIED),
        (
            "namespace n {\nint S<int>::f()\n  const BODY;\n}\n",
            Unit::Header,
            3,
            QUALIFIED,
        ),
        ("static int f(void) BODY;\n", Unit::Header, 1, STATIC),
        (
            "int a;\nstatic int (f)(void)\n  BODY;\n",
            Unit::Header,
            3,
            STATIC,
        ),
    ];
    for &(source, unit, line, what) in cases {
        assert_eq!(
            super::classify(source.as_bytes(), unit),
            CSource::Unrecognised(line, what),
            "{unit:?}: {source}"
        );
    }
    // Not followed by `;`, a body still says so.
    assert_eq!(
        super::classify(b"int f(void) ATTR {\n}\n", Unit::Source),
        CSource::HasCode(1)
    );
}

#[test]
fn headers_and_sources_are_told_by_their_extension() {
    for (extension, unit) in [
        ("h", Unit::Header),
        ("HPP", Unit::Header),
        ("hh", Unit::Header),
        ("hxx", Unit::Header),
        ("inl", Unit::Header),
        ("c", Unit::Source),
        ("cc", Unit::Source),
        ("CPP", Unit::Source),
        ("cxx", Unit::Source),
    ] {
        assert_eq!(unit_of(extension), unit, "{extension}");
    }
}
