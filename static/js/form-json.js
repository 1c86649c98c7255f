// htmx extension `form-json`: send a request's form fields as one JSON object, not form-encoded.
// The live preview posts the whole editor form (hundreds of fields) on every pause in typing;
// decoding JSON costs the server a small fraction of parsing a form body of that size.
// Each field keeps its last value (the editor form has no field that repeats).
(function () {
  "use strict";

  htmx.defineExtension("form-json", {
    onEvent: function (name, event) {
      if (name === "htmx:configRequest") {
        event.detail.headers["Content-Type"] = "application/json";
      }
    },
    encodeParameters: function (xhr, parameters) {
      const fields = {};
      parameters.forEach(function (value, name) {
        fields[name] = value;
      });
      return JSON.stringify(fields);
    },
  });
})();
