"""What every lesson page shares, one job a module: the frame and presenter mode (present),
the settings row's corpus box (corpus), the step controls (steps), the address (address),
widget keys (keys), the view each page remembers (view_memory), symbols as chips (chips),
a step's table (tables), the server-wide store as pages use it (store, cached), the merge
lessons' page shape (merge_lesson), the guard (guard), accessibility (a11y), escaping
(escape), downloads (export), an upload's estimate (estimate), the token inspector
(inspector), the regularization panels (regularize) and Streamlit's internals (compat)."""
