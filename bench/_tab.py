"""One student's tab as the server sees it, for bench/load_ws.py: Streamlit's own protocol
on one websocket to ``/_stcore/stream``, protobuf ``BackMsg`` up and ``ForwardMsg`` down
(streamlit.proto), the handshake as the frontend's WebsocketConnection and App make it.
Not a benchmark itself."""

from __future__ import annotations

import asyncio

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

EARLY = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN  # st.rerun: not the end
COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR
NEXT = "_step_next"  # how the key of the step's next button ends (lessons/ui/steps.py)
STEP = "step"  # the query parameter the step slider is bound to
# the websocket's subprotocols, as the frontend sends them: the one it asks the server to
# select, then a placeholder for the host's auth token (a third would be a session id to
# reconnect to)
SUBPROTOCOLS = ["streamlit", "PLACEHOLDER_AUTH_TOKEN"]


class Tab:
    """One student's tab as the server sees it: Streamlit's protocol on one websocket."""

    def __init__(self, ws, path: str, query: str, timeout: float):
        self.ws, self.query, self.timeout = ws, query, timeout
        self.page_name, self.page_hash = path.strip("/"), ""  # the hash once the server names it
        self.widgets: dict[str, object] = {}  # a widget's key -> its proto, as last drawn
        self.fragment: dict[str, str] = {}  # a widget's key -> its fragment's id ("": none)
        self.runs = 0  # script runs the server made for this tab, early ends included
        self.outside = 0  # elements the last run drew outside any fragment (the page's own)

    async def run(
        self, *states: WidgetState, fragment_id: str = "", auto: bool = False
    ) -> list[str]:
        """Ask for a run of the page with the widget `states` changed (a browser sends only
        the widgets it has values for; the server keeps the others), read the server's
        messages until the run has finished, and return the errors they showed. A widget
        inside an st.fragment asks, as the browser does, for a run of its fragment alone
        (`fragment_id`: see fragment_of); `auto`: the rerun a fragment's ``run_every``
        asks the browser for (the server's ``auto_rerun`` message)."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string, rerun.page_script_hash = self.query, self.page_hash
        rerun.fragment_id, rerun.is_auto_rerun = fragment_id, auto
        rerun.page_name = "" if self.page_hash else self.page_name  # a deep link's first run
        rerun.widget_states.widgets.extend(states)
        await self.ws.send(msg.SerializeToString())
        errors: list[str] = []
        self.outside = 0
        async with asyncio.timeout(self.timeout):
            while True:
                fwd = ForwardMsg.FromString(await self.ws.recv())
                kind = fwd.WhichOneof("type")
                self.seen(fwd, kind)
                if kind == "script_finished":
                    self.runs += 1
                    if fwd.script_finished == COMPILE_ERROR:
                        errors.append("the script did not compile")
                    if fwd.script_finished != EARLY:
                        return errors
                elif kind == "navigation":  # the page this tab shows, named by its hash
                    self.page_hash = fwd.navigation.page_script_hash
                elif kind == "page_info_changed":  # the address the browser now shows
                    self.query = fwd.page_info_changed.query_string
                elif kind == "page_not_found":
                    errors.append(f"page not found: {fwd.page_not_found.page_name}")
                elif kind == "session_event" and fwd.session_event.HasField(
                    "script_compilation_exception"
                ):
                    errors.append(fwd.session_event.script_compilation_exception.message)
                elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                    errors += self._element(fwd.delta.new_element, fwd.delta.fragment_id)
                    self.outside += not fwd.delta.fragment_id

    def seen(self, fwd: ForwardMsg, kind: str) -> None:
        """Each message of a run as it comes (a subclass looks at more of them)."""

    def _element(self, element, fragment_id: str = "") -> list[str]:
        """Keep a keyed widget's proto by its key; an exception or st.error is an error."""
        kind = element.WhichOneof("type")
        if kind is None:
            return []
        if kind == "exception":
            return [f"exception: {element.exception.type}: {element.exception.message[:200]}"]
        if kind == "alert" and element.alert.format == Alert.Format.ERROR:
            return [f"st.error: {' '.join(element.alert.body.split())[:200]}"]
        widget_id = getattr(getattr(element, kind), "id", "")
        if widget_id.startswith("$$ID-"):  # "$$ID-<hash>-<the key the page gave>"
            key = widget_id.split("-", 2)[2]
            self.widgets[key], self.fragment[key] = getattr(element, kind), fragment_id
        return []

    def fragment_of(self, widget) -> str:
        """The id of the fragment `widget` was drawn in ("" for the page itself)."""
        return next((self.fragment[k] for k, w in self.widgets.items() if w is widget), "")

    def next_button(self):
        """The step's next button as last drawn (None: the page has none)."""
        return next((w for key, w in self.widgets.items() if key.endswith(NEXT)), None)

    def step_slider(self):
        """The slider bound to ?step= as last drawn (None: the page has none)."""
        return next(
            (w for w in self.widgets.values() if getattr(w, "query_param_key", "") == STEP), None
        )

    def step_shown(self) -> int | None:
        slider = self.step_slider()
        if slider is None:
            return None
        return int((slider.value if slider.set_value else slider.default)[0])


def step_states(tab: Tab, via: str, step: int) -> tuple[list[WidgetState], str]:
    """What a student's move to `step` sends: the next button's trigger, or the slider;
    and the fragment both are drawn in (the run the browser asks for)."""
    if via == "next":
        widget = tab.next_button()
        return [WidgetState(id=widget.id, trigger_value=True)], tab.fragment_of(widget)
    widget = tab.step_slider()
    state = WidgetState(id=widget.id)
    state.double_array_value.data.append(step)
    return [state], tab.fragment_of(widget)
