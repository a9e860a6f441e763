import time
import pytest
from django.core.signals import request_started
from scoring.models import Round
pytestmark = pytest.mark.django_db(transaction=True)

def fill(phone):
    for i, p in enumerate([0, 6, 6, 10]):
        phone.fill(f"#f-points_{i}", str(p))
    phone.select_option("#f-entered_by", "0")

@pytest.fixture
def log():
    log = []
    def st(sender, environ=None, **kw):
        log.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        if environ["REQUEST_METHOD"] == "POST":
            time.sleep(0.5)
    request_started.connect(st)
    yield log
    request_started.disconnect(st)

def test_explore_dbl_slow(live_server, phone, make_setup, log):
    s = make_setup("ding_niu")
    url = live_server.url + f"/s/{s.token}/"
    phone.goto(url)
    fill(phone)
    phone.get_by_role("button", name="Submit").dblclick()
    phone.wait_for_url("**#deals")
    time.sleep(1.5)
    print(log)
    print("AFTER DBL", phone.url, Round.objects.count())
    print(phone.inner_text("main")[:300])

def test_explore_back_preview(live_server, phone, make_setup, log):
    s = make_setup("ding_niu")
    url = live_server.url + f"/s/{s.token}/"
    phone.goto(url)
    fill(phone)
    phone.get_by_role("button", name="Preview").click()
    phone.wait_for_selector("#preview")
    phone.get_by_role("button", name="Submit").click()
    phone.wait_for_url("**#deals")
    try:
        phone.go_back()
    except Exception as e:
        print("BACK ERR", str(e)[:100])
    time.sleep(0.5)
    print("URL", phone.url, phone.content()[:300])
    for attempt in range(2):
        try:
            phone.reload()
            print("RELOADED", phone.url, phone.inner_text("body")[:300])
            break
        except Exception as e:
            print("RELOAD ERR", str(e)[:300])
            time.sleep(0.5)
    print(log)
