/** The pages' only stylesheet, served as a file (the CSP allows no inline style or script). */
export const PAGES_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 48rem; padding: 1rem; }
header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 1rem; border-bottom: 1px solid; }
header form, td form { display: inline; }
.brand { font-weight: bold; }
.skip, .visually-hidden { position: absolute; left: -100rem; }
.skip:focus { position: static; }
label { display: block; margin-top: 0.75rem; font-weight: 600; }
input[type=email], input[type=password], input[type=text] { width: 100%; max-width: 24rem; padding: 0.4rem; font: inherit; }
fieldset label { display: inline; font-weight: normal; margin: 0; }
fieldset div { margin: 0.25rem 0; }
button { margin-top: 1rem; padding: 0.4rem 1rem; font: inherit; cursor: pointer; }
td button { margin: 0; }
:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #8884; vertical-align: top; }
.alert { border: 2px solid #c5221f; padding: 0.5rem 0.75rem; }
.spends { font-weight: bold; color: #b3261e; }
.key { font-family: ui-monospace, monospace; font-size: 1.1rem; word-break: break-all; }
.actions { display: flex; gap: 1rem; }
`;
