"""A version named another way redirects to its label: for good when it is another spelling of the
label, for now when it is a date or "latest" (the version in force then changes when an edition is added)."""

import pytest


@pytest.mark.parametrize(
    "asked,status,location",
    [
        ("/marvel-champions/v/2020-03-01/terms/dash", 302, "/marvel-champions/v/1.2/terms/dash"),
        ("/marvel-champions/v/latest/terms/dash", 302, "/marvel-champions/v/1.5/terms/dash"),
        ("/marvel-champions/v/current/terms/dash", 302, "/marvel-champions/v/1.5/terms/dash"),
        ("/marvel-champions/v/2020-03-01/", 302, "/marvel-champions/v/1.2/"),
        ("/marvel-champions/v/v1.1/terms/dash", 301, "/marvel-champions/v/1.1/terms/dash"),
        ("/marvel-champions/v/1.1.0/terms/dash", 301, "/marvel-champions/v/1.1/terms/dash"),
        ("/marvel-champions/v/V1.4/", 301, "/marvel-champions/v/1.4/"),
    ],
)
def test_a_version_named_by_date_redirects_for_now_and_by_spelling_for_good(client, asked, status, location):
    response = client.get(asked)
    assert (response.status_code, response.headers["Location"]) == (status, location)
