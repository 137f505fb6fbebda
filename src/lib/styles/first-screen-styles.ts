/**
 * The Mantine CSS the first screen needs, instead of the whole 249 KB @mantine/core/styles.css
 * (docs/decisions/0052-first-screen-budget-and-code-splitting.md): the global styles, then what the sign-in pages and
 * the status pages use, in Mantine's order (that of its styles.css). The theme's CSS variables come
 * from MantineProvider (`deduplicateCssVariables={false}`, src/main.tsx), not from
 * default-css-variables.css. Each later part adds its own: toast-styles.ts (the first toast),
 * mfa-modal-styles.ts, signed-in-styles.ts, the upload wizard's dialog.
 * tests/contract/first-screen-budget.test.ts checks that every Mantine class a page's code uses is
 * styled by the CSS that page loads.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
// Input's clear button is one: the sign-in forms have none, but its code comes with Input's.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
import './focus-ring.css';
