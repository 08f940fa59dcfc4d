/* test_social.c - social networks: names, profile URLs and labels, checks
 * on usernames, networks cvpdf does not know. */
#include "harness.h"
#include "social.h"

static cv_arena *A;
#include "errcheck.h"

/* Read the social network item written in flow style as `yaml` (a
 * mapping); NULL on an error (in E). */
static const cv_social *item(const char *yaml)
{
    static cv_social s;
    cv_error_init(&E);
    cv_yml *root = cv_yml_load(A, "s.yaml", yaml, strlen(yaml), &E);
    return root && cv_social_read(A, root, &s, &E) ? &s : NULL;
}

/* {network: NETWORK, username: 'USERNAME'} */
static const cv_social *social(const char *network, const char *username)
{
    char yaml[256];
    snprintf(yaml, sizeof yaml, "network: %s\nusername: '%s'\n", network, username);
    return item(yaml);
}

TEST(network_names)
{
    CHECK_STR(cv_social_network("GitHub"), "GitHub");
    CHECK_STR(cv_social_network("github"), "GitHub");
    CHECK_STR(cv_social_network("LINKEDIN"), "LinkedIn");
    CHECK_STR(cv_social_network("google_scholar"), "Google Scholar");
    CHECK_STR(cv_social_network("Google-Scholar"), "Google Scholar");
    CHECK_STR(cv_social_network("stack overflow"), "StackOverflow");
    CHECK_STR(cv_social_network("orcid"), "ORCID");
    CHECK_STR(cv_social_network("Twitter"), "X");
    CHECK(cv_social_network("Myspace") == NULL);
    CHECK(cv_social_network("Git") == NULL);
    CHECK(cv_social_network("") == NULL);
}

TEST(urls_and_labels)
{
    const cv_social *s = social("GitHub", "feifeibear");
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "  %s\n", errstr());
        return;
    }
    CHECK_STR(s->network.s, "GitHub");
    CHECK(s->network.pos.line == 1 && s->network.pos.col == 10);
    CHECK_STR(s->username.s, "feifeibear");
    CHECK(s->username.pos.line == 2);
    CHECK_STR(s->url, "https://github.com/feifeibear");
    CHECK_STR(s->label, "feifeibear");

    s = social("linkedin", "ada-lovelace");
    CHECK(s && !strcmp(s->network.s, "LinkedIn"));
    CHECK_STR(s ? s->url : NULL, "https://linkedin.com/in/ada-lovelace");
    CHECK_STR(s ? s->label : NULL, "ada-lovelace");

    s = social("ORCID", "0000-0002-1825-009X");
    CHECK_STR(s ? s->url : NULL, "https://orcid.org/0000-0002-1825-009X");
    CHECK_STR(s ? s->label : NULL, "0000-0002-1825-009X");

    /* Google Scholar IDs mean nothing to a reader: the label is the name. */
    s = social("Google Scholar", "abcDEF12");
    CHECK_STR(s ? s->url : NULL, "https://scholar.google.com/citations?user=abcDEF12");
    CHECK_STR(s ? s->label : NULL, "Google Scholar");
    CHECK_STR(s ? s->network.s : NULL, "Google Scholar");
    s = social("google_scholar", "x");
    CHECK_STR(s ? s->network.s : NULL, "Google Scholar");
}

TEST(urls_built_specially)
{
    const cv_social *s = social("Mastodon", "@ada@mastodon.social");
    CHECK_STR(s ? s->url : NULL, "https://mastodon.social/@ada");
    s = social("WhatsApp", "+44 20 1234-5678");
    CHECK_STR(s ? s->url : NULL, "https://wa.me/442012345678");
    CHECK_STR(s ? s->label : NULL, "+44 20 1234-5678");
    s = social("YouTube", "@ada");
    CHECK_STR(s ? s->url : NULL, "https://youtube.com/@ada");
    s = social("Twitter", "ada");
    CHECK_STR(s ? s->network.s : NULL, "X");
    CHECK_STR(s ? s->url : NULL, "https://x.com/ada");
    /* The item's own url wins over the built one. */
    s = item("{network: GitHub, username: ada, url: 'https://github.com/ada-lab'}");
    CHECK_STR(s ? s->url : NULL, "https://github.com/ada-lab");
}

TEST(unknown_networks)
{
    const cv_social *s = social("Githb", "ada");
    CHECK(s == NULL);
    CHECK_STR(errstr(), "1:10: unknown social network 'Githb' (did you mean 'GitHub'?)");
    CHECK(social("Twiter", "ada") == NULL);
    CHECK_STR(E.msg, "unknown social network 'Twiter' (did you mean 'X'?)");
    CHECK(social("Myspace", "ada") == NULL);
    CHECK(has(E.msg, "unknown social network 'Myspace': cvpdf knows LinkedIn, GitHub"));
    CHECK(has(E.msg, "give a 'url' for any other"));
    /* With a url of its own, any network goes, as written. */
    s = item("{network: Codeberg, username: ada, url: 'https://codeberg.org/ada'}");
    CHECK(s != NULL);
    CHECK_STR(s ? s->network.s : NULL, "Codeberg");
    CHECK_STR(s ? s->url : NULL, "https://codeberg.org/ada");
    CHECK_STR(s ? s->label : NULL, "ada");
}

TEST(username_checks)
{
    CHECK(social("ORCID", "0000-0001-8578") == NULL);
    CHECK_STR(errstr(), "2:11: ORCID iD '0000-0001-8578' must look like 0000-0002-1825-0097");
    CHECK(social("ORCID", "0000-0001-8578-515Y") == NULL);
    CHECK(social("ORCID", "0000-000X-8578-5158") == NULL);
    CHECK(social("ORCID", "0000.0001.8578.5158") == NULL);
    CHECK(social("Mastodon", "ada") == NULL);
    CHECK_STR(E.msg, "Mastodon username 'ada' must look like @name@server");
    CHECK(social("Mastodon", "@ada@") == NULL);
    CHECK(social("Mastodon", "@@server") == NULL);
    CHECK(social("Mastodon", "@a@b@c") == NULL);
    CHECK(social("GitHub", "ada lovelace") == NULL);
    CHECK_STR(E.msg, "GitHub username 'ada lovelace' must not contain spaces");
}

/* A username written as the profile's URL, or a handle with its '@'. */
static const cv_social *noted(const char *network, const char *username, const char **note)
{
    static cv_social s;
    char yaml[256];
    snprintf(yaml, sizeof yaml, "network: %s\nusername: '%s'\n", network, username);
    capture();
    cv_yml *root = cv_yml_load(A, "s.yaml", yaml, strlen(yaml), &E);
    bool ok = root && cv_social_read(A, root, &s, &E);
    *note = said();
    return ok ? &s : NULL;
}

TEST(usernames_as_urls)
{
    const char *note;
    const cv_social *s = noted("GitHub", "https://github.com/ab", &note);
    CHECK_STR(s ? s->url : NULL, "https://github.com/ab");
    CHECK_STR(s ? s->label : NULL, "ab");
    CHECK_STR(s ? s->username.s : NULL, "ab");
    CHECK_STR(note, "s.yaml:2:11: note: GitHub username given as a URL: cvpdf uses 'ab'\n");
    s = noted("LinkedIn", "https://www.linkedin.com/in/ada-l/", &note);
    CHECK_STR(s ? s->url : NULL, "https://linkedin.com/in/ada-l");
    CHECK(has(note, "cvpdf uses 'ada-l'"));
    s = noted("GitHub", "github.com/ab", &note);
    CHECK_STR(s ? s->label : NULL, "ab");
    s = noted("Google Scholar", "https://scholar.google.com/citations?user=abc12&hl=en", &note);
    CHECK_STR(s ? s->url : NULL, "https://scholar.google.com/citations?user=abc12");
    s = noted("ORCID", "https://orcid.org/0000-0002-1825-0097", &note);
    CHECK_STR(s ? s->url : NULL, "https://orcid.org/0000-0002-1825-0097");
    s = noted("Mastodon", "https://mastodon.social/@ada", &note);
    CHECK_STR(s ? s->url : NULL, "https://mastodon.social/@ada");
    CHECK_STR(s ? s->label : NULL, "@ada@mastodon.social");
    /* A URL that is not the network's profile: an error, not a guess. */
    CHECK(noted("GitHub", "https://gitlab.com/ab", &note) == NULL);
    CHECK(has(E.msg, "GitHub username 'https://gitlab.com/ab' is a URL, not a username"));
    CHECK(noted("GitHub", "https://github.com/ab/repo", &note) == NULL);
    CHECK(noted("Mastodon", "https://mastodon.social/about", &note) == NULL);
    CHECK(has(E.msg, "write it as @name@server"));
    /* A plain username says nothing. */
    s = noted("GitHub", "ab", &note);
    CHECK(s && !*note);
}

TEST(handles_with_at)
{
    const char *note;
    const cv_social *s = noted("Twitter", "@ab", &note);
    CHECK_STR(s ? s->url : NULL, "https://x.com/ab");
    CHECK_STR(s ? s->label : NULL, "@ab");
    CHECK(s && !*note);
    s = noted("Instagram", "@ab", &note);
    CHECK_STR(s ? s->url : NULL, "https://instagram.com/ab");
    s = noted("YouTube", "@ab", &note);
    CHECK_STR(s ? s->url : NULL, "https://youtube.com/@ab");
}

TEST(item_errors)
{
    CHECK(item("network: GitHub\n") == NULL);
    CHECK_STR(errstr(), "1:1: a social network needs a 'username'");
    CHECK(item("username: ada\n") == NULL);
    CHECK_STR(E.msg, "a social network needs a 'network'");
    CHECK(item("{network: GitHub, username: ''}") == NULL);
    CHECK_STR(E.msg, "'username' must not be empty");
    CHECK(item("{network: GitHub, user_name: a}") == NULL);
    CHECK(has(E.msg, "unknown key 'user_name' in social network (did you mean 'username'?)"));
    CHECK(item("[GitHub]") == NULL);
    CHECK(has(E.msg, "a social network is a mapping with 'network' and 'username', not a list"));
    CHECK(item("{network: GitHub, username: ada, url: github.com/ada}") == NULL);
    CHECK(has(E.msg, "invalid url 'github.com/ada': write a full URL"));
}

TEST(icons)
{
    CHECK_STR(cv_social_icon("GitHub"), "\xEF\x82\x9B");      /* U+F09B */
    CHECK_STR(cv_social_icon("email"), "\xEF\x80\x83");       /* U+F003 envelope-o */
    CHECK_STR(cv_social_icon("Google Scholar"), "\xEF\x86\x9D");
    CHECK(cv_social_icon("Myspace") == NULL);
    CHECK(cv_social_icon(NULL) == NULL);
}

int main(void)
{
    A = cv_arena_new();
    RUN(network_names);
    RUN(urls_and_labels);
    RUN(urls_built_specially);
    RUN(unknown_networks);
    RUN(username_checks);
    RUN(item_errors);
    RUN(usernames_as_urls);
    RUN(handles_with_at);
    RUN(icons);
    cv_arena_free(A);
    return harness_report("social");
}
