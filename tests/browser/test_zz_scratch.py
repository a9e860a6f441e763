import pytest
from scoring.models import Round
pytestmark = pytest.mark.django_db(transaction=True)

def fill(phone):
    for i, p in enumerate([0, 6, 6, 10]):
        phone.fill(f"#f-points_{i}", str(p))
    phone.select_option("#f-entered_by", "0")

def test_explore_back_no_preview(live_server, phone, make_setup):
    s = make_setup("ding_niu")
    url = live_server.url + f"/s/{s.token}/"
    phone.goto(url)
    fill(phone)
    key = phone.input_value("input[name=idem_key]")
    phone.get_by_role("button", name="Submit").click()
    phone.wait_for_url("**#deals")
    print("AFTER SUBMIT", phone.url, Round.objects.count())
    phone.go_back()
    print("BACK", phone.url)
    print("same key", phone.input_value("input[name=idem_key]") == key, [phone.input_value(f"#f-points_{i}") for i in range(4)])
    print(phone.inner_text("#deals"))
    phone.get_by_role("button", name="Submit").click()
    phone.wait_for_load_state()
    print("AFTER RESUBMIT", phone.url, Round.objects.count())
    print(phone.inner_text("main")[:300])

def test_explore_back_preview(live_server, phone, make_setup):
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
    print("URL", phone.url)
    try:
        phone.reload()
        print("RELOADED", phone.url, phone.inner_text("main")[:300])
    except Exception as e:
        print("RELOAD ERR", str(e)[:300])

def test_explore_dbl(live_server, phone, make_setup):
    from django.core.signals import request_started, request_finished
    log = []
    def st(sender, environ=None, **kw):
        log.append(("start", environ["REQUEST_METHOD"], environ["PATH_INFO"]))
    def fin(sender, **kw):
        log.append(("finish",))
    request_started.connect(st); request_finished.connect(fin)
    s = make_setup("ding_niu")
    url = live_server.url + f"/s/{s.token}/"
    phone.goto(url)
    fill(phone)
    phone.get_by_role("button", name="Submit").dblclick()
    phone.wait_for_url("**#deals")
    import time; time.sleep(1)
    print(log)
    print("AFTER DBL", phone.url, Round.objects.count())
    print(phone.inner_text("main")[:300])
