/** What the toasts add to the first screen's Mantine CSS (loaded with the first toast, src/routes/__root.tsx). */
import '@mantine/core/styles/Notification.css';
