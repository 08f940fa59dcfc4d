/* Unit tests for quotes.c: apostrophes, opening and closing quotes by
 * language, state across spans, text without quotes left as it is. */
#include "harness.h"

#include <string.h>

#include "quotes.h"

static cv_arena *A;

static const char *smarten(const char *lang, const char *s)
{
    cv_quotes q;
    cv_quotes_init(&q, lang);
    size_t n;
    const char *o = cv_quotes_apply(A, &q, s, strlen(s), &n);
    return cv_arena_strndup(A, o, n);
}

TEST(quotes_english)
{
    CHECK_STR(smarten("en", "\"Distributed Systems\" at d'Informatique"),
              "\xE2\x80\x9C" "Distributed Systems\xE2\x80\x9D at d\xE2\x80\x99" "Informatique");
    CHECK_STR(smarten(NULL, "it's the 'best' (\"quoted\")"),
              "it\xE2\x80\x99s the \xE2\x80\x98" "best\xE2\x80\x99 (\xE2\x80\x9C" "quoted\xE2\x80\x9D)");
    CHECK_STR(smarten("en", "students' work in the '90s"),
              "students\xE2\x80\x99 work in the \xE2\x80\x99" "90s");
}

TEST(quotes_by_language)
{
    CHECK_STR(smarten("de", "\"Hallo\""), "\xE2\x80\x9E" "Hallo\xE2\x80\x9C");
    CHECK_STR(smarten("fr-FR", "\"Bonjour\" l'ami"), "\xC2\xAB" "Bonjour\xC2\xBB l\xE2\x80\x99" "ami");
    CHECK_STR(smarten("ja", "\"x\""), "\xE3\x80\x8C" "x\xE3\x80\x8D");
    CHECK_STR(smarten("zh", "\"x\""), "\xE2\x80\x9C" "x\xE2\x80\x9D");
    CHECK_STR(smarten("deu", "\"x\""), "\xE2\x80\x9C" "x\xE2\x80\x9D");    /* not "de" */
}

TEST(quotes_state_spans_and_no_copy)
{
    cv_quotes q;
    cv_quotes_init(&q, "en");
    size_t n;
    const char *plain = "no quotes here";
    CHECK(cv_quotes_apply(A, &q, plain, strlen(plain), &n) == plain && n == strlen(plain));
    /* The quote after "here" closes: the state follows the text. */
    const char *o = cv_quotes_apply(A, &q, "\" and \"on", 9, &n);
    CHECK(n == 13 && !strncmp(o, "\xE2\x80\x9D and \xE2\x80\x9C" "on", n));
}

/* Chinese typed without spaces: the quote after 号 closes the one open
 * (it came out as a second opening quote: 中文“引号“和‘单引号‘). */
TEST(quotes_after_cjk_close_what_is_open)
{
    CHECK_STR(smarten("zh", "中文\"引号\"和'单引号'。"),
              "中文\xE2\x80\x9C引号\xE2\x80\x9D和\xE2\x80\x98单引号\xE2\x80\x99。");
    CHECK_STR(smarten("de", "中文\"引号\"和"), "中文\xE2\x80\x9E引号\xE2\x80\x9C和");
    CHECK_STR(smarten("ja", "日本語\"かぎ\"です"), "日本語\xE3\x80\x8C" "かぎ\xE3\x80\x8D" "です");
    /* English ones as before. */
    CHECK_STR(smarten("en", "a \"b\" c \"d\""),
              "a \xE2\x80\x9C" "b\xE2\x80\x9D c \xE2\x80\x9C" "d\xE2\x80\x9D");
}

/* A web or e-mail address written out keeps its quotes as typed (they are
 * part of it); the sentence's quotes around it are still typographic. */
TEST(quotes_not_inside_addresses)
{
    CHECK_STR(smarten("en", "mail o'brien@example.com, don't wait"),
              "mail o'brien@example.com, don\xE2\x80\x99t wait");
    CHECK_STR(smarten("en", "see https://x.org/it's-here."), "see https://x.org/it's-here.");
    CHECK_STR(smarten("en", "at www.x.org/a'b"), "at www.x.org/a'b");
    CHECK_STR(smarten("en", "'https://x.org/a' and \"o'b@x.org\""),
              "\xE2\x80\x98https://x.org/a\xE2\x80\x99 and \xE2\x80\x9Co'b@x.org\xE2\x80\x9D");
    /* Not an address: an '@' with no dot after it, a word with a dot. */
    CHECK_STR(smarten("en", "it's @home, e.g. Kim's"),
              "it\xE2\x80\x99s @home, e.g. Kim\xE2\x80\x99s");
}

int main(void)
{
    A = cv_arena_new();
    RUN(quotes_english);
    RUN(quotes_by_language);
    RUN(quotes_state_spans_and_no_copy);
    RUN(quotes_after_cjk_close_what_is_open);
    RUN(quotes_not_inside_addresses);
    cv_arena_free(A);
    return harness_report("quotes");
}
