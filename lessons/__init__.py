"""The Streamlit app's pages, one package per lesson (its page.py and its own views), and
ui/, what every page shares. app.py lists the pages; nothing here is installed."""
