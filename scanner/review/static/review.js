// Progressive enhancement of the review page: a confirmation before each action, and one
// submission per form (a double click posts once; the server is idempotent anyway).
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form.classList || !form.classList.contains("act")) return;
  if (form.dataset.sent === "1") { event.preventDefault(); return; }
  var question = form.dataset.confirm;
  if (question && !window.confirm(question)) { event.preventDefault(); return; }
  form.dataset.sent = "1";
  var buttons = document.querySelectorAll("form.act button");
  for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
});
