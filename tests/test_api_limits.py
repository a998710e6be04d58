"""The API refuses a number outside its range, as the CLI does, rather than answering with another one."""

import pytest


@pytest.mark.parametrize(
    "url,message",
    [
        ("/api/search?q=guard&limit=0", "limit must be from 1 to 100, not 0"),
        ("/api/search?q=guard&limit=101", "limit must be from 1 to 100, not 101"),
        ("/api/search?q=guard&limit=-5", "limit must be from 1 to 100, not -5"),
        ("/api/search?q=guard&limit=abc", "limit must be a whole number from 1 to 100"),
        ("/search?q=guard&limit=100000", "limit must be from 1 to 100, not 100000"),
        ("/api/complete?q=gu&limit=21", "limit must be from 1 to 20, not 21"),
        ("/api/marvel-champions/v/1.4/?limit=0", "limit must be from 1 to 1000, not 0"),
        ("/api/marvel-champions/v/1.4/?limit=5000", "limit must be from 1 to 1000, not 5000"),
        ("/api/marvel-champions/v/1.4/?offset=-1", "offset must be from 0 to"),
    ],
)
def test_a_number_out_of_range_is_a_400_saying_the_range(client, url, message):
    response = client.get(url)
    assert response.status_code == 400, url
    said = response.get_json()["message"] if url.startswith("/api/") else response.get_data(as_text=True)
    assert message in said


def test_the_ends_of_each_range_are_answered(client, cli):
    assert len(client.get("/api/search?q=card&limit=100").get_json()["hits"]) > 10
    assert client.get("/api/search?q=guard&limit=1").status_code == 200
    assert client.get("/api/complete?q=gu&limit=20").status_code == 200
    assert client.get("/api/marvel-champions/v/1.4/?limit=1000").status_code == 200
    assert cli("search", "guard", "--limit", "101").exit_code == 2  # the CLI's range, the same
